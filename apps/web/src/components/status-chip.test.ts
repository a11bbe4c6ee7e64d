import { describe, expect, it } from 'vitest';
import { WORLD_FILL, ZONE_TINT_ALPHA } from '../features/admin-map/render/map-background.ts';
import { STATUS_COLORS } from './status-chip.tsx';

/** Machado et al. (2009) simulation matrices, severity 1, on linear RGB. */
const DEFICIENCIES: Record<string, number[][]> = {
  none: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const rgb = (hex: string) => [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16)));

function lab([r, g, b]: number[]): number[] {
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047);
  const y = f(0.2126 * r! + 0.7152 * g! + 0.0722 * b!);
  const z = f((0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIE76 distance between two colours as a person with `deficiency` sees them. */
function distance(a: string, b: string, deficiency: number[][]): number {
  const seen = (hex: string) =>
    lab(
      deficiency.map((row) =>
        Math.min(
          1,
          Math.max(
            0,
            rgb(hex).reduce((sum, c, i) => sum + c * row[i]!, 0),
          ),
        ),
      ),
    );
  const [p, q] = [seen(a), seen(b)];
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

describe('status colours', () => {
  it('"Erreur" stays far from "Combat" and every other status, whatever the colour vision', () => {
    for (const [name, deficiency] of Object.entries(DEFICIENCIES)) {
      expect(distance(STATUS_COLORS.error, STATUS_COLORS.fighting, deficiency), name).toBeGreaterThan(40);
      for (const [status, colour] of Object.entries(STATUS_COLORS)) {
        if (status === 'error') continue;
        expect(distance(STATUS_COLORS.error, colour, deficiency), `${name}: ${status}`).toBeGreaterThan(20);
      }
    }
  });
});

/** A zone's colour as the map paints it: `ZONE_TINT_ALPHA` over the world's fill (sRGB blending). */
function zoneTint(levels: number[]): string {
  const base = [1, 3, 5].map((i) => Number.parseInt(WORLD_FILL.slice(i, i + 2), 16));
  const mixed = levels.map((level, i) =>
    Math.round(base[i]! * (1 - ZONE_TINT_ALPHA) + level * ZONE_TINT_ALPHA),
  );
  return `#${mixed.map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

describe('status colours on the live map’s zone tints', () => {
  // Zones' colours are data (the world's areas): every colour of a 6-level RGB grid stands for them.
  const steps = [0, 51, 102, 153, 204, 255];
  const tints = steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => zoneTint([r, g, b]))));

  it('every marker, "Combat" and "Erreur" first, stands out from any zone, whatever the colour vision', () => {
    for (const [name, deficiency] of Object.entries(DEFICIENCIES)) {
      for (const tint of tints) {
        expect(distance(STATUS_COLORS.error, tint, deficiency), `${name}: error on ${tint}`).toBeGreaterThan(
          40,
        );
        for (const [status, colour] of Object.entries(STATUS_COLORS))
          expect(distance(colour, tint, deficiency), `${name}: ${status} on ${tint}`).toBeGreaterThan(20);
      }
    }
  });
});
