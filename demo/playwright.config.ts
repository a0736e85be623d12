// `npm run demo`: the walkthrough of demo/walkthrough.demo.ts on the production build served under
// /foldlab/, in Chromium at 1280x800. Kept apart from e2e/ so `npm test` does not run it.
import { defineConfig } from '@playwright/test';

/** Port of the preview server. Default 4330. */
const PORT = Number(process.env.DEMO_PORT ?? 4330);
/** The build served (demo/run.ts builds it). Default dist-e2e-demo. */
const OUT = process.env.DEMO_OUT ?? 'dist-e2e-demo';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.demo.ts',
  outputDir: '../test-results-demo',
  timeout: 360_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/foldlab/`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: `npx vite preview --outDir ${OUT} --port ${PORT} --strictPort --host 127.0.0.1`,
    cwd: '..',
    env: { BASE_PATH: '/foldlab/' },
    url: `http://127.0.0.1:${PORT}/foldlab/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
