// Vite build for Foldlab: a static single-page app. BASE_PATH sets the sub-path it is served
// under (GitHub Pages serves it at /<repo>/), so every runtime URL goes through BASE_URL.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: process.env.BASE_PATH ?? '/',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
  },
  server: { port: 5173 },
});
