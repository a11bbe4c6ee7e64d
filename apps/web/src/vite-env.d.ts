/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/client" />

/** Build id injected by vite.config.ts `define`; equals dist/build.json's buildId. */
declare const __BUILD_ID__: string;
