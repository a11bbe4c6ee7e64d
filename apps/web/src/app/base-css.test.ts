import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BREAKPOINTS } from '@bot/contracts';
import type { TypographyVariant } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { theme } from '../lib/theme.ts';

/**
 * The pages drawn with static CSS (app/base.css and the CSS modules next to them) must look like the
 * ones drawn with MUI's components: their values are the theme's (docs/decisions/103).
 */
const SOURCE = resolve(fileURLToPath(import.meta.url), '../..');
const baseCss = readFileSync(join(SOURCE, 'app/base.css'), 'utf8');

function cssFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** A value with its spaces and commas written one way. */
const normalize = (value: string) =>
  value
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .trim();

/** The custom properties of `:root`. */
function rootVariables(css: string): Record<string, string> {
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  return Object.fromEntries(
    [...root.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map(([, name = '', value = '']) => [
      name,
      normalize(value),
    ]),
  );
}

function font(variant: TypographyVariant): string {
  const { fontWeight, fontSize, lineHeight } = theme.typography[variant];
  return `${fontWeight} ${fontSize} / ${lineHeight} var(--font-family)`;
}

describe('static CSS and the MUI theme', () => {
  it('app/base.css declares the theme’s values', () => {
    const { palette, shape, typography, transitions, zIndex } = theme;
    const expected: Record<string, string> = {
      '--color-primary': palette.primary.main,
      '--color-primary-dark': palette.primary.dark,
      '--color-primary-contrast': palette.primary.contrastText,
      '--color-primary-border': theme.alpha(palette.primary.main, 0.5),
      '--color-primary-hover': theme.alpha(palette.primary.main, palette.action.hoverOpacity),
      '--color-text': palette.text.primary,
      '--color-text-secondary': palette.text.secondary,
      '--color-text-hover': theme.alpha(palette.text.primary, palette.action.hoverOpacity),
      '--color-divider': palette.divider,
      '--color-background': palette.background.default,
      '--color-paper': palette.background.paper,
      '--color-warning-dark': palette.warning.dark,
      '--color-warning-contrast': palette.warning.contrastText,
      '--color-info-dark': palette.info.dark,
      '--color-info-contrast': palette.info.contrastText,
      '--radius': `${shape.borderRadius}px`,
      '--z-app-bar': String(zIndex.appBar),
      '--font-family': String(typography.fontFamily),
      '--font-h1': font('h1'),
      '--font-h2': font('h2'),
      '--font-h3': font('h3'),
      '--font-h5': font('h5'),
      '--font-h6': font('h6'),
      '--font-body1': font('body1'),
      '--font-body2': font('body2'),
      '--font-button': font('button'),
      '--transition-button': transitions.create(['background-color', 'box-shadow', 'border-color', 'color'], {
        duration: transitions.duration.short,
      }),
    };
    expect(rootVariables(baseCss)).toEqual(
      Object.fromEntries(Object.entries(expected).map(([name, value]) => [name, normalize(value)])),
    );
  });

  it('media queries use the breakpoints of docs/specification.md', () => {
    const widths = cssFiles(SOURCE).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/@media[^{]*\(min-width:\s*(\d+)px\)/g)].map(([, width]) =>
        Number(width),
      ),
    );
    expect(widths.length).toBeGreaterThan(0);
    const breakpoints: number[] = Object.values(BREAKPOINTS);
    expect(widths.filter((width) => !breakpoints.includes(width))).toEqual([]);
  });
});
