// Unit tests run the pure core (and the worker and database layers) in Node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'threads',
  },
});
