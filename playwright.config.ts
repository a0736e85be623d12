// End-to-end tests: the production build served under the /foldlab/ sub-path (as on GitHub
// Pages), driven in the system Chromium. Any root-relative URL in the app breaks these tests.
import { defineConfig } from '@playwright/test';

const PORT = 4173;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/foldlab/`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --outDir dist-e2e --port ${PORT} --strictPort --host 127.0.0.1`,
    env: { BASE_PATH: '/foldlab/' },
    url: `http://127.0.0.1:${PORT}/foldlab/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
