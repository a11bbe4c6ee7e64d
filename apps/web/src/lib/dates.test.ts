import { describe, expect, it } from 'vitest';

describe("dates in the viewer's time zone", () => {
  it('shows and reads times in the browser zone, whatever the server or Paris say', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      // Formatters are built at import: this file loads the module only now, once the zone is set.
      const dates = await import('./dates.ts');
      expect(dates.viewerTimeZone).toBe('America/New_York');
      expect(dates.formatDateTime('2026-11-23T09:15:00Z')).toBe('23/11/2026 04:15');
      expect(dates.toLocalInput('2026-11-23T09:15:00Z')).toBe('2026-11-23T04:15');
      expect(dates.fromLocalInput('2026-11-23T04:15')).toBe('2026-11-23T09:15:00.000Z');
      expect(dates.formatDate(null)).toBe('—');
    } finally {
      process.env.TZ = zone;
    }
  });
});
