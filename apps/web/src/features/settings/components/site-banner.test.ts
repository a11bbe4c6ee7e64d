import { describe, expect, it } from 'vitest';
import { maintenanceWindowText } from './site-banner.tsx';

describe('running maintenance window', () => {
  const now = new Date(2026, 10, 26, 20, 0);
  it('ends the message with one full stop and says when it ends, the time alone today', () => {
    const endsAt = new Date(2026, 10, 26, 22, 30).toISOString();
    expect(maintenanceWindowText('Mise à jour de la base.', endsAt, now)).toBe(
      'Mise à jour de la base. Fin prévue à 22:30.',
    );
    expect(maintenanceWindowText('Mise à jour de la base', endsAt, now)).toBe(
      'Mise à jour de la base. Fin prévue à 22:30.',
    );
    expect(maintenanceWindowText('Tout est coupé !  ', endsAt, now)).toBe(
      'Tout est coupé ! Fin prévue à 22:30.',
    );
  });

  it('keeps a sentence closed inside quotes or brackets, and drops a hanging colon', () => {
    const endsAt = new Date(2026, 10, 26, 22, 30).toISOString();
    const text = (message: string) => maintenanceWindowText(message, endsAt, now);
    expect(text('« Merci de patienter. »')).toBe('« Merci de patienter. » Fin prévue à 22:30.');
    expect(text('Mise à jour (voir la page statut.)')).toBe(
      'Mise à jour (voir la page statut.) Fin prévue à 22:30.',
    );
    expect(text('Mise à jour :')).toBe('Mise à jour. Fin prévue à 22:30.');
    expect(text('Mise à jour (phase 2)')).toBe('Mise à jour (phase 2). Fin prévue à 22:30.');
  });

  it('names the day when the window ends another day', () => {
    const endsAt = new Date(2026, 10, 27, 6, 0).toISOString();
    expect(maintenanceWindowText('Migration…', endsAt, now)).toBe(
      'Migration… Fin prévue le 27/11/2026 à 06:00.',
    );
  });
});
