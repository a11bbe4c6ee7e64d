import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// Relative path: the config is bundled by Vite, and Node 20 cannot load the package's .ts entry itself.
import { WEB_ROUTES } from '../../packages/contracts/src/routes.ts';

// A build is always a production build, even when started from a test runner (vitest sets NODE_ENV=test,
// which would otherwise give a development bundle: no service worker, no build checks, dev React).
if (process.argv.includes('build')) process.env.NODE_ENV = 'production';

/** One id per build: baked into the bundle and written to dist/build.json (see docs/decisions/101). */
const buildId = process.env.BUILD_ID ?? `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

function buildInfo(): Plugin {
  return {
    name: 'bot-build-info',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: `${JSON.stringify({ buildId })}\n` });
    },
  };
}

/**
 * Brotli and gzip copies of every text file of the build, written once at build time: the server
 * sends the one the browser accepts (@fastify/static `preCompressed`) instead of compressing the same
 * bytes on every request, and with the best (slow) settings that only a build can afford.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'bot-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // The public pages' HTML first: it is compressed with the rest.
      await prerenderPublicPages(outDir);
      const files = (await readdir(outDir, { recursive: true })).filter((file) =>
        /\.(js|css|html|svg|json|webmanifest)$/.test(file),
      );
      for (const file of files) {
        const full = path.join(outDir, file);
        const source = await readFile(full);
        if (source.length < 1024) continue;
        await writeFile(
          `${full}.br`,
          brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        await writeFile(`${full}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/** The public pages written to static HTML at build time (docs/decisions/106). */
const PRERENDERED_PATHS = WEB_ROUTES.filter((route) => route.layout === 'landing').map((route) => route.path);

/**
 * Renders the public pages with the app's own components (a Vite server in middleware mode loads
 * `src/app/prerender.tsx`) into copies of the built `index.html`: the markup inside `#root`, the
 * page's title. `dist/prerendered/<name>.html`, `index.html` for `/`; the server sends them for those
 * paths. `dist/index.html` stays the empty shell the service worker falls back to for every route.
 */
async function prerenderPublicPages(outDir: string): Promise<void> {
  const shell = await readFile(path.join(outDir, 'index.html'), 'utf8');
  const vite = await createServer({
    configFile: fileURLToPath(import.meta.url),
    mode: 'production',
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: 'custom',
  });
  try {
    const { renderPublicPage } = (await vite.ssrLoadModule('/src/app/prerender.tsx')) as {
      renderPublicPage: (path: string) => Promise<string>;
    };
    await mkdir(path.join(outDir, 'prerendered'), { recursive: true });
    for (const route of WEB_ROUTES.filter((entry) => PRERENDERED_PATHS.includes(entry.path))) {
      const markup = await renderPublicPage(route.path);
      const title = route.path === '/' ? 'BotForge' : `${route.name} · BotForge`;
      const html = shell
        .replace('<div id="root"></div>', `<div id="root" data-prerendered="">${markup}</div>`)
        .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`);
      if (!html.includes(markup)) throw new Error('index.html sans <div id="root"></div>');
      await writeFile(path.join(outDir, 'prerendered', prerenderedFileName(route.path)), html);
    }
  } finally {
    await vite.close();
  }
}

/** `/` → `index.html`, `/forgot-password` → `forgot-password.html` (the server reads the same names). */
function prerenderedFileName(routePath: string): string {
  return `${routePath === '/' ? 'index' : routePath.slice(1)}.html`;
}

/**
 * The entry's stylesheet (app/base.css and the CSS modules of the landing page, the public frame and the
 * error views: a few KB) written into index.html instead of linked: no render-blocking request between
 * the document and its first paint (docs/decisions/103). The file stays in dist/ for the manifest.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'bot-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g,
          (tag, fileName: string) => {
            const asset = bundle?.[fileName];
            return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : tag;
          },
        );
      },
    },
  };
}

/** Only paths of the route table fall back to the cached app shell; others reach the server (HTTP 404). */
const navigationAllowlist = WEB_ROUTES.map(
  (route) => new RegExp(`^${route.path.replace(/:[^/]+/g, '[^/]+')}/?(\\?.*)?$`),
);

const serverUrl = process.env.WEB_DEV_SERVER ?? 'http://127.0.0.1:3000';

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  // The same class names in the build and in the prerender's server rendering (a Vite dev server):
  // the prerendered markup must match the inlined stylesheet.
  css: { modules: { generateScopedName: '[local]_[hash:base64:6]' } },
  resolve: {
    // The toast styles ship as a CSS file (imported in app/providers.tsx) instead of a JS string
    // injected at run time: about 3 KB gzip less JavaScript on every page, one toast module for all.
    alias: [{ find: /^react-toastify$/, replacement: 'react-toastify/unstyled' }],
  },
  plugins: [
    react(),
    buildInfo(),
    inlineEntryCss(),
    precompress(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false,
      manifest: {
        name: 'BotForge',
        short_name: 'BotForge',
        lang: 'fr',
        theme_color: '#0f1419',
        background_color: '#0f1419',
        display: 'standalone',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        // autoUpdate: a new worker takes over at once, and the page reloads (through the reload guard).
        skipWaiting: true,
        clientsClaim: true,
        // Admin chunks stay out of the precache so a visitor never downloads the admin area.
        globPatterns: ['**/*.{js,css,html,svg,webmanifest}'],
        globIgnores: ['assets/admin/**'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: navigationAllowlist,
        navigateFallbackDenylist: [/^\/api\//, /^\/socket\.io\//],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/assets/admin/'),
            handler: 'CacheFirst',
            options: { cacheName: 'admin-chunks', expiration: { maxEntries: 80 } },
          },
        ],
      },
    }),
  ],
  build: {
    manifest: true,
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the entry chunk.
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // A lazily loaded admin module's own chunk holds only what nothing else needs (its icons…);
        // a shared chunk is the admin's only when every module in it is.
        chunkFileNames: (chunk) =>
          (chunk.facadeModuleId !== null && isAdminModule(chunk.facadeModuleId)) ||
          (chunk.moduleIds.length > 0 && chunk.moduleIds.every(isAdminModule))
            ? 'assets/admin/[name]-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
  server: {
    proxy: {
      '/api': serverUrl,
      '/config.json': serverUrl,
      '/build.json': serverUrl,
      '/socket.io': { target: serverUrl, ws: true },
    },
  },
});

function isAdminModule(id: string): boolean {
  return (
    /\/src\/(features\/admin[^/]*|app\/layouts\/admin-layout)/.test(id) ||
    id.includes('@mui/x-data-grid') ||
    id.includes('uplot')
  );
}
