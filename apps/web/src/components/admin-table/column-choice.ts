import type { GridColumnVisibilityModel } from '@mui/x-data-grid';
import { useState } from 'react';

/** Below this width, a table's secondary columns start hidden: its row actions stay on screen. */
const WIDE_SCREEN_PX = 1600;
/** MUI's `sm` breakpoint: under it, a phone (docs/decisions/106). */
const PHONE_PX = 600;
const STORAGE_PREFIX = 'admin-table-columns:';

/** The columns a table starts with: all of them on a wide screen, its main ones otherwise. */
function defaultVisibility(
  secondary: readonly string[],
  phoneHidden: readonly string[],
  screenWidth: number,
): GridColumnVisibilityModel {
  if (screenWidth >= WIDE_SCREEN_PX) return {};
  const hidden = screenWidth < PHONE_PX ? [...secondary, ...phoneHidden] : secondary;
  return Object.fromEntries(hidden.map((field) => [field, false]));
}

function readStored(key: string): GridColumnVisibilityModel | null {
  try {
    const raw = localStorage.getItem(STORAGE_PREFIX + key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'),
    );
  } catch {
    return null; // storage disabled or damaged: the defaults
  }
}

/**
 * The columns staff chose to see in one table, remembered in this browser; until they choose, the
 * defaults for the screen's width.
 */
export function useColumnChoice(
  key: string,
  secondary: readonly string[] = [],
  phoneHidden: readonly string[] = [],
) {
  const [visibility, setVisibility] = useState<GridColumnVisibilityModel>(
    () => readStored(key) ?? defaultVisibility(secondary, phoneHidden, window.innerWidth),
  );
  const choose = (next: GridColumnVisibilityModel) => {
    setVisibility(next);
    try {
      localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(next));
    } catch {
      // not remembered: the choice still holds on this page
    }
  };
  return [visibility, choose] as const;
}
