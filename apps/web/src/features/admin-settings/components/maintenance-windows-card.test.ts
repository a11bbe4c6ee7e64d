import type { MaintenanceWindow } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { overlappedWindow, overlapText } from './maintenance-windows-card.tsx';

const at = (hour: number) => new Date(Date.UTC(2026, 10, 26, hour));
const window = (id: string, from: number, to: number, state: MaintenanceWindow['state']) =>
  ({
    id,
    startsAt: at(from).toISOString(),
    endsAt: at(to).toISOString(),
    state,
    message: id,
  }) as MaintenanceWindow;

describe('a window being scheduled', () => {
  it('names the open window it overlaps, not one it only touches nor one cancelled or over', () => {
    const windows = [
      window('finie', 8, 10, 'ended'),
      window('annulée', 10, 14, 'cancelled'),
      window('prévue', 12, 14, 'scheduled'),
    ];
    expect(overlappedWindow(windows, at(13), at(15))?.id).toBe('prévue');
    expect(overlappedWindow(windows, at(11), at(12))).toBeUndefined();
    expect(overlappedWindow(windows, at(9), at(11))).toBeUndefined();
  });
});

describe('the overlap warning', () => {
  it('says which message the banner shows: the earlier start, the existing window on a tie', () => {
    const existing = window('Mise à jour des serveurs', 12, 14, 'scheduled');
    expect(overlapText(existing, at(11))).toBe(
      'Cette fenêtre chevauche « Mise à jour des serveurs » : pendant le chevauchement, la bannière affichera ce nouveau message.',
    );
    for (const start of [12, 13])
      expect(overlapText(existing, at(start))).toBe(
        'Cette fenêtre chevauche « Mise à jour des serveurs » : pendant le chevauchement, la bannière affichera « Mise à jour des serveurs ».',
      );
  });
});
