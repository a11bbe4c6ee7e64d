import type { BotCommand } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import {
  canCancel,
  canStopAccount,
  fitsState,
  pauseStateOf,
  RAN_SPEAKS_FOR_MS,
  refreshInterval,
  WAITING_REFRESH_MS,
} from './command-rules.ts';
import { issuerOf, messageOf } from './command-text.ts';
import { routeLabel } from './route-names.ts';

const command = (overrides: Partial<BotCommand> = {}): BotCommand => ({
  id: 'c1',
  hwid: 'HWID-0001',
  kind: 'pause',
  payload: {},
  state: 'queued',
  message: null,
  issuer: { type: 'owner', username: 'alice' },
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  expiresAt: '2026-11-26T10:10:00.000Z',
  ...overrides,
});

describe('remote command rules', () => {
  it('reads the list again every 500 ms while a command waits, only without a socket', () => {
    expect(WAITING_REFRESH_MS).toBe(500);
    expect(refreshInterval(false, [command({ state: 'sent' })])).toBe(500);
    expect(refreshInterval(false, [command({ state: 'acknowledged' })])).toBe(500);
    expect(refreshInterval(false, [command({ state: 'succeeded' })])).toBe(false);
    expect(refreshInterval(false, undefined)).toBe(false);
    expect(refreshInterval(true, [command()])).toBe(false);
  });

  it('offers to cancel a queued command, to its owner not one sent by staff', () => {
    const fromStaff = command({ issuer: { type: 'staff', username: null } });
    expect(canCancel(command(), true)).toBe(true);
    expect(canCancel(fromStaff, true)).toBe(false);
    expect(canCancel(fromStaff, false)).toBe(true);
    expect(canCancel(command({ state: 'sent' }), false)).toBe(false);
  });

  it('offers pause while running, resume while paused, both when the state is unknown', () => {
    expect([fitsState('pause', true), fitsState('resume', true), fitsState('restart', true)]).toEqual([
      false,
      true,
      true,
    ]);
    expect([fitsState('pause', false), fitsState('resume', false)]).toEqual([true, false]);
    expect([fitsState('pause', undefined), fitsState('resume', undefined)]).toEqual([true, true]);
    expect([canStopAccount('stopped'), canStopAccount('gathering'), canStopAccount(undefined)]).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe('remote command texts', () => {
  it('tells the owner "vous" for their own commands and cancellations', () => {
    const cancelled = command({ state: 'cancelled', message: 'annulée par le propriétaire' });
    expect(issuerOf(cancelled, true)).toBe('vous');
    expect(messageOf(cancelled, true)).toBe('annulée par vous');
    expect(issuerOf(cancelled, false)).toBe('alice');
    expect(messageOf(cancelled, false)).toBe('annulée par le propriétaire');
    expect(messageOf(command({ message: 'annulée par l’équipe' }), true)).toBe('annulée par l’équipe');
    expect(issuerOf(command({ issuer: { type: 'staff', username: null } }), true)).toBe('l’équipe');
  });
});

describe('route labels', () => {
  const routes = [{ id: 'r1', name: 'Boucle des Pins', kind: 'gathering' as const }];
  it('names a listed route, waits for the list, and never shows an id', () => {
    expect(routeLabel(routes, 'r1')).toBe('Boucle des Pins');
    expect(routeLabel(undefined, 'r1')).toBe('…');
    expect(routeLabel(routes, '01a21a1b-1353-7336-b27a-6a9b43cde872')).toBe('non publié');
  });
});

describe('pause state for the one-click buttons', () => {
  const ranAt = Date.parse('2026-11-26T10:00:01.000Z');
  const older = command({
    id: 'c0',
    kind: 'resume',
    state: 'succeeded',
    createdAt: '2026-11-26T09:00:00.000Z',
  });
  it('holds Pause and Reprendre while one is on its way', () => {
    expect(pauseStateOf([older, command({ state: 'sent' })], false, ranAt)).toEqual({
      paused: false,
      isChanging: true,
    });
  });

  it('takes a pause the bot just ran as its state until its report says so, then the report again', () => {
    const ran = command({ state: 'succeeded', updatedAt: '2026-11-26T10:00:01.000Z' });
    expect(pauseStateOf([ran, older], false, ranAt + 1_000)).toEqual({ paused: true, isChanging: false });
    expect(pauseStateOf([ran, older], false, ranAt + RAN_SPEAKS_FOR_MS)).toEqual({
      paused: false,
      isChanging: false,
    });
    // A browser clock an hour behind the server does not pin it.
    expect(pauseStateOf([ran], false, ranAt - 3_600_000)).toEqual({ paused: false, isChanging: false });
    expect(pauseStateOf([command({ kind: 'restart', state: 'sent' })], true, ranAt)).toEqual({
      paused: true,
      isChanging: false,
    });
  });
});
