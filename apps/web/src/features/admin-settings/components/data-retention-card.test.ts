import { DEFAULT_SETTINGS, RETENTION_SETTINGS, SETTINGS_LABELS, siteSettingsSchema } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { RETENTION_HELP, retentionLabel } from './data-retention-card.tsx';

describe('the « Conservation des données » card', () => {
  it('shows every duration setting, each with a French label and what it keeps', () => {
    const durations = Object.keys(DEFAULT_SETTINGS).filter((key) => key.endsWith('RetentionDays'));
    expect([...RETENTION_SETTINGS].sort()).toEqual(durations.sort());
    for (const key of RETENTION_SETTINGS) {
      expect(SETTINGS_LABELS[key]).toMatch(/^Conservation d.* \(jours\)$/);
      expect(RETENTION_HELP[key].length).toBeGreaterThan(10);
      expect(retentionLabel(key)).toMatch(/^[A-ZÉ].* \(jours\)$/);
    }
    // The card's title says « Conservation »: its fields do not repeat it.
    expect(retentionLabel('botHistoryRetentionDays')).toBe('Historique minute par minute des bots (jours)');
    expect(retentionLabel('auditRetentionDays')).toBe('Journal d’audit (jours)');
  });

  it('refuses an audit trail kept less than a year, with the reason', () => {
    const refused = siteSettingsSchema.shape.auditRetentionDays.safeParse(364);
    expect(refused.error?.issues[0]?.message).toBe(
      'Le journal d’audit est conservé au moins 365 jours (un an).',
    );
    expect(siteSettingsSchema.shape.auditRetentionDays.safeParse(365).success).toBe(true);
  });
});
