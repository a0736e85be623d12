// Vite build for Foldlab: a static single-page app. BASE_PATH sets the sub-path it is served
// under (GitHub Pages serves it at /<repo>/), so every runtime URL goes through BASE_URL.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

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
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:* http://[::1]:*",
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

export default defineConfig({
  base: process.env.BASE_PATH ?? '/',
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
  },
  server: { port: 5173 },
});
