/**
 * What /admin/map exposes on `window.__adminMap` in the instrumented build only
 * (apps/web/src/features/admin-map/instrumented/map-instruments.ts): the part the benchmark uses.
 */
interface AdminMapInstruments {
  renderer: {
    view: { cx: number; cy: number; scale: number };
    markDirty(): void;
    stats: { frames: number; drawn: number; drawMs: number[] };
  };
  buffers: { size: number };
  inject: (states: unknown[], asSnapshot?: boolean) => void;
}

declare global {
  interface Window {
    __adminMap?: AdminMapInstruments;
  }
}

// A module (its declarations augment the global Window), imported for its types only.
export {};
