// Vite build of the save benchmark page (bench/section-save.ts builds and serves it): its own root
// and output folder, so nothing of it reaches the app's bundle in dist/.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: resolve(import.meta.dirname, '../out/save-site'),
    emptyOutDir: true,
  },
});
