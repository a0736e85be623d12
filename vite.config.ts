// Vite build for Foldlab: a static single-page app. BASE_PATH sets the sub-path it is served
// under (GitHub Pages serves it at /<repo>/), so every runtime URL goes through BASE_URL.
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { PRECACHE_SAMPLE_LIMIT } from './scripts/bundle-budgets.ts';

/**
 * The production page's Content-Security-Policy: scripts only from the site (plus WebAssembly
 * compilation for WebLLM), no remote images, connections wide enough for the user's own model
 * endpoints (any https origin, local servers on any port). Not in dev: the dev server injects
 * inline scripts for hot reload.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  // Local model servers by name or IPv4 (Chromium refuses an IPv6 literal here and logs an error).
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'foldlab-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

/** What an installed app needs beside the manifest: the iOS home-screen icon and the title bar colour. */
function installMeta(): Plugin {
  return {
    name: 'foldlab-install-meta',
    transformIndexHtml: (_html, context) => {
      const base = context.server?.config.base ?? process.env.BASE_PATH ?? '/';
      return [
        { tag: 'link', attrs: { rel: 'apple-touch-icon', href: `${base}icons/apple-touch-icon-180.png` }, injectTo: 'head' },
        { tag: 'meta', attrs: { name: 'theme-color', content: '#1f2937' }, injectTo: 'head' },
      ];
    },
  };
}

/**
 * Preloads for the chunks the entry imports at start-up (src/main.tsx loads the app in steps, each
 * a dynamic import) and their stylesheets: the browser fetches them all with the entry rather than
 * one after another, and the first-screen budget (scripts/bundle-budgets.ts) counts every
 * modulepreload of index.html. Derived from the entry chunk's dynamic imports, so a new start-up
 * step is preloaded and counted without a list to keep in step.
 */
function startupPreloads(): Plugin {
  let base = '/';
  return {
    name: 'foldlab-startup-preloads',
    apply: 'build',
    configResolved: (config) => {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, context) => {
        const { bundle, chunk: entry } = context;
        if (!bundle || !entry) return [];
        const chunks = new Set<string>();
        const css = new Set<string>();
        const visit = (file: string) => {
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk' || chunks.has(file) || file === entry.fileName) return;
          chunks.add(file);
          for (const sheet of (chunk as Rollup.OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) css.add(sheet);
          chunk.imports.forEach(visit);
        };
        entry.dynamicImports.forEach(visit);
        for (const file of entry.imports) chunks.delete(file); // Vite preloads those already.
        return [
          ...[...css].map((file) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: base + file }, injectTo: 'head' as const })),
          ...[...chunks].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: base + file }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}


/** public/samples files over PRECACHE_SAMPLE_LIMIT, as paths relative to the built site. */
function largeSamples(): string[] {
  const root = fileURLToPath(new URL('./public/', import.meta.url));
  return readdirSync(join(root, 'samples'), { recursive: true, encoding: 'utf8' })
    .map((file) => join('samples', file))
    .filter((file) => statSync(join(root, file)).isFile() && statSync(join(root, file)).size > PRECACHE_SAMPLE_LIMIT)
    .map((file) => file.split(sep).join('/'));
}

/** Precached file size limit (bytes): the o200k tokenizer table is about 2 MB. */
const PRECACHE_FILE_LIMIT = 3 * 1024 * 1024;

/**
 * The service worker (Workbox via vite-plugin-pwa) and the web app manifest. Precache: the app
 * shell, every chunk, the workers and the tokenizer tables, icons and the small samples, so the app
 * opens and works offline after one visit. WebLLM's worker (the library, ~6 MB) is cached the first
 * time a local model is used, sql.js's WebAssembly (0.7 MB, the Cursor and opencode store reader) the first
 * time a state.vscdb or opencode.db is imported; model weights are cached by WebLLM itself, never by us. 'prompt':
 * a new version waits until the page accepts it (UpdatePrompt), never swapping code under a job.
 */
export const PWA_OPTIONS: Partial<VitePWAOptions> = {
  registerType: 'prompt',
  injectRegister: false,
  // The glob below already precaches public/ (icons included): no second entry per icon.
  includeManifestIcons: false,
  manifest: {
    name: 'Foldlab — context compaction workbench',
    short_name: 'Foldlab',
    description: 'See what each LLM context-compaction strategy does to your own agent transcript. Runs entirely in your browser.',
    display: 'standalone',
    background_color: '#f8fafc',
    theme_color: '#1f2937',
    icons: [
      { src: 'icons/icon-64.png', sizes: '64x64', type: 'image/png' },
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,json,jsonl,md,vscdb,db}'],
    globIgnores: ['**/webllm.worker-*.js', ...largeSamples()],
    maximumFileSizeToCacheInBytes: PRECACHE_FILE_LIMIT,
    // The first install takes control of the open page at once, so what it loads later in that first
    // visit (WebLLM's worker, a large sample) is cached already. Updates still wait for the prompt:
    // a new worker only activates after the user presses Reload (no skipWaiting).
    clientsClaim: true,
    runtimeCaching: [
      {
        urlPattern: /\/assets\/webllm\.worker-[\w-]+\.js$/,
        handler: 'CacheFirst',
        options: { cacheName: 'foldlab-webllm', expiration: { maxEntries: 2 } },
      },
      {
        urlPattern: /\/assets\/sql-wasm[\w-]*\.wasm$/,
        handler: 'CacheFirst',
        options: { cacheName: 'foldlab-sqlite', expiration: { maxEntries: 2 } },
      },
      {
        urlPattern: /\/samples\/.+\.jsonl?$/,
        handler: 'StaleWhileRevalidate',
        options: { cacheName: 'foldlab-samples', expiration: { maxEntries: 20 } },
      },
    ],
  },
};

export default defineConfig({
  base: process.env.BASE_PATH ?? '/',
  plugins: [react(), contentSecurityPolicy(), installMeta(), startupPreloads(), VitePWA(PWA_OPTIONS)],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
    rolldownOptions: {
      output: {
        // Dexie in a chunk named for it, so the budget report says where the database library is
        // (src/main.tsx evaluates it, with the schema, in a start-up step of its own).
        codeSplitting: { groups: [{ name: 'dexie', test: /[\\/]node_modules[\\/]dexie[\\/]/ }] },
      },
    },
  },
  server: { port: 5173 },
});
