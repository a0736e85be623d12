// Vite build of the timeline benchmark page (bench/timeline-browser.ts builds and serves it): its
// own root and output folder, so nothing of it reaches the app's bundle in dist/.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    target: 'es2022',
    outDir: resolve(import.meta.dirname, '../out/timeline-site'),
    emptyOutDir: true,
  },
});
