// End-to-end tests: the production build served under the /foldlab/ sub-path (as on GitHub
// Pages), driven in the system Chromium. Any root-relative URL in the app breaks these tests.
import { defineConfig } from '@playwright/test';

// E2E_PORT and E2E_OUT let several builds be tested side by side on one machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const OUT = process.env.E2E_OUT ?? 'dist-e2e';
// The sub-path the build under test was made for (the Pages workflow passes /<repository>/).
const BASE = process.env.BASE_PATH ?? '/foldlab/';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env.E2E_PORT ? `test-results-${PORT}` : 'test-results',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two workers on CI too: the suite is about 15 min of tests in series, 2 cores run two browsers.
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}${BASE}`,
    trace: 'retain-on-failure',
    // Routes do not see requests a service worker answers: blocked by default, allowed in offline.spec.ts.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --outDir ${OUT} --port ${PORT} --strictPort --host 127.0.0.1`,
    env: { BASE_PATH: BASE },
    url: `http://127.0.0.1:${PORT}${BASE}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
