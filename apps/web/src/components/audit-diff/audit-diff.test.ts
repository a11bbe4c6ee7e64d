import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/dates.ts';
import { diffValues, formatValue, summarizeDiff } from './audit-diff.ts';

describe('audit diff', () => {
  it('lists added, removed and changed fields', () => {
    const lines = diffValues({ isSnow: false, a: 1, gone: 'x' }, { isSnow: true, a: 1, added: ['r'] });
    expect(lines).toEqual([
      { key: 'isSnow', before: false, after: true, kind: 'changed' },
      { key: 'a', before: 1, after: 1, kind: 'same' },
      { key: 'gone', before: 'x', after: undefined, kind: 'removed' },
      { key: 'added', before: undefined, after: ['r'], kind: 'added' },
    ]);
    expect(diffValues(null, null)).toEqual([]);
    expect(diffValues(null, { hwid: null })).toEqual([
      { key: 'hwid', before: undefined, after: null, kind: 'same' },
    ]);
  });

  it('summarises in French, with field labels', () => {
    expect(summarizeDiff({ isSnow: false }, { isSnow: true })).toBe('Affichage de la neige : Non → Oui');
    expect(summarizeDiff(null, { roles: [] })).toBe('Rôles : Aucun');
    expect(summarizeDiff(null, null)).toBe('');
    const end = '2026-12-23T09:15:00.000Z';
    // in the order the database returns jsonb keys (shortest first)
    const grant = { grantId: 'b7e0c1d2', expiresAt: end, permission: 'can_useTreasure' };
    expect(diffValues(null, grant).map((line) => line.key)).toEqual(['permission', 'expiresAt', 'grantId']);
    expect(summarizeDiff(null, grant)).toBe(
      `Permission : Utiliser le bot de chasse au trésor · Fin : ${formatDateTime(end)}`,
    );
    expect(summarizeDiff({ permissions: ['can_manageUsers'] }, { permissions: ['can_manageAudit'] })).toBe(
      "Permissions : Gérer les utilisateurs → Consulter le journal d'audit",
    );
  });
});

describe('audit values in French', () => {
  it('shows permission names as their French label', () => {
    expect(formatValue('can_useTreasure', 'permission')).toBe('Utiliser le bot de chasse au trésor');
    expect(formatValue(['can_manageUsers', 'can_useGathering'], 'grants')).toBe(
      'Gérer les utilisateurs, Utiliser le bot de récolte',
    );
  });

  it('shows dates in the viewer time, never ISO; an empty end is "Sans fin"', () => {
    const iso = '2026-11-23T09:15:00.000Z';
    expect(formatValue(iso, 'expiresAt')).toBe(formatDateTime(iso));
    expect(formatValue(iso, 'expiresAt')).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(formatValue('2026-11-23T09:15:00+01:00', 'whatever')).not.toContain('T09');
    expect(formatValue(null, 'expiresAt')).toBe('Sans fin');
    expect(formatValue(null, 'discordId')).toBe('Vide');
  });

  it('reads booleans, money, durations, percentages and enumerations', () => {
    expect([formatValue(true), formatValue(false)]).toEqual(['Oui', 'Non']);
    expect(formatValue(999, 'priceCents').replace(/\s/g, ' ')).toBe('9,99 €');
    expect(formatValue(30, 'durationDays')).toBe('30 jours');
    expect(formatValue(1, 'durationDays')).toBe('1 jour');
    expect(formatValue(20, 'percentOff').replace(/\s/g, ' ')).toBe('20 %');
    expect(formatValue(12500, 'redemptionsCount').replace(/\s/g, ' ')).toBe('12 500');
    expect(formatValue('refunded', 'status')).toBe('Remboursée');
    expect(formatValue('draft', 'status')).toBe('Brouillon');
    expect(formatValue('gift', 'kind')).toBe('Cadeau (offre gratuite)');
    expect(formatValue('manual', 'source')).toBe('Staff');
    expect(formatValue('stripe', 'provider')).toBe('Stripe');
    expect(formatValue('')).toBe('Vide');
    expect(formatValue(['a', 'b'])).toBe('a, b');
  });

  it('shows nested objects as names or labelled pairs, never JSON', () => {
    expect(formatValue({ id: 'u1', username: 'alice' }, 'user')).toBe('alice');
    expect(formatValue({ secondFactor: 'application', enabled: true })).toBe(
      'Second facteur : application, Activée : Oui',
    );
    const nested = formatValue({ permission: 'can_manageMap', expiresAt: null });
    expect(nested).toBe('Permission : Voir la carte en direct de tous les bots, Fin : Sans fin');
    expect(nested).not.toMatch(/[{}"]/);
  });

  it('reads remote commands sent or cancelled by staff in French (bot.command, bot.command_cancel)', () => {
    const id = '01a217b9-0ecb-7402-9ec1-12e3298aa57e';
    expect(summarizeDiff(null, { id, kind: 'resume', payload: {} })).toBe(
      'Type : Reprise · Paramètres : Aucun',
    );
    expect(summarizeDiff(null, { id, kind: 'stopAccount', payload: { account: 'Alpha' } })).toBe(
      'Type : Arrêt d’un compte de jeu · Paramètres : Compte de jeu : Alpha',
    );
    expect(
      formatValue({ routeId: null, accounts: [{ name: 'Alpha', enabled: false, routeId: null }] }, 'payload'),
    ).toBe('Itinéraire : Vide, Comptes de jeu : Alpha (arrêté)');
    expect(summarizeDiff({ state: 'queued' }, { id, kind: 'pause', state: 'cancelled' })).toBe(
      'Type : Pause · État : En file d’attente → Annulée',
    );
  });
});
