/**
 * Bundle budgets over the build under test (E2E_OUT, default dist-e2e): the first screen's
 * JavaScript, the precache, WebLLM in one chunk only (its worker, cached at first use), and every
 * other chunk precached so the app works offline. No browser: the sizes come from the files.
 */
import { expect, test } from '@playwright/test';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FIRST_SCREEN_BUDGET_GZIP, formatReport, measure, PRECACHE_BUDGET_BYTES, PRECACHE_SAMPLE_LIMIT } from '../scripts/bundle-budgets.ts';

const DIR = resolve(import.meta.dirname, '..', process.env.E2E_OUT ?? 'dist-e2e');

test('the build stays within its budgets, WebLLM ships once and the app shell is precached', () => {
  const report = measure(DIR);
  console.log(formatReport(report));

  expect(report.firstScreen.files.some((file) => /^assets\/index-[\w-]+\.js$/.test(file)), 'the entry chunk is found').toBe(true);
  expect(report.firstScreen.gzip, 'first-screen JavaScript, gzip bytes').toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_GZIP);
  expect(report.precache.bytes, 'precache, bytes').toBeLessThanOrEqual(PRECACHE_BUDGET_BYTES);

  // WebLLM: one copy, in its own worker, cached at first use rather than precached.
  expect(report.webllm).toHaveLength(1);
  expect(report.webllm[0]).toMatch(/^assets\/webllm\.worker-[\w-]+\.js$/);
  expect(report.precache.files).not.toContain(report.webllm[0]);

  // Everything else the app loads is precached: the shell, every lazy chunk, the workers, the tokenizer tables.
  const notPrecached = report.chunks.filter((c) => c.file.startsWith('assets/') && !c.webllm && !c.precached).map((c) => c.file);
  expect(notPrecached).toEqual([]);
  for (const name of ['index.html', 'manifest.webmanifest']) expect(report.precache.files).toContain(name);
  for (const table of ['o200k_base', 'cl100k_base', 'engine.worker']) expect(report.precache.files.some((f) => f.includes(table)), table).toBe(true);

  // Large samples are cached when first opened, never precached.
  const samples = report.precache.files.filter((f) => f.startsWith('samples/'));
  expect(samples.length).toBeGreaterThan(0);
  const large = measureSamples(samples).filter((s) => s.bytes > PRECACHE_SAMPLE_LIMIT);
  expect(large).toEqual([]);
});

function measureSamples(files: string[]) {
  return files.map((file) => ({ file, bytes: statSync(resolve(DIR, file)).size }));
}
