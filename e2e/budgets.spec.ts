/**
 * Bundle budgets over the build under test (E2E_OUT, default dist-e2e): the first screen's
 * JavaScript, the precache, WebLLM in one chunk only (its worker, cached at first use), and every
 * other chunk precached so the app works offline. The sizes come from the files; a browser then
 * checks that the first screen loads no script the budget does not count.
 */
import { expect, test } from '@playwright/test';
import { readFileSync, statSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { AFTER_PAINT_CHUNKS, dynamicImports, FIRST_SCREEN_BUDGET_GZIP, formatReport, measure, MOUNT_CHUNKS, PRECACHE_BUDGET_BYTES, PRECACHE_SAMPLE_LIMIT, staticImports } from '../scripts/bundle-budgets.ts';

const DIR = resolve(import.meta.dirname, '..', process.env.E2E_OUT ?? 'dist-e2e');

test('the build stays within its budgets, WebLLM ships once and the app shell is precached', () => {
  const report = measure(DIR);
  console.log(formatReport(report));

  const entry = report.firstScreen.files.find((file) => /^assets\/index-[\w-]+\.js$/.test(file));
  expect(entry, 'the entry chunk is found').toBeDefined();
  // Every chunk the entry imports, at once or in its start-up steps, counts; so do the chunks the app imports as it mounts.
  const entryCode = readFileSync(resolve(DIR, entry!), 'utf8');
  const startup = [...staticImports(entryCode), ...dynamicImports(entryCode)].map((spec) => posix.join(posix.dirname(entry!), spec));
  expect(startup.length, 'the entry loads the app in steps').toBeGreaterThan(1);
  expect(startup.filter((file) => !report.firstScreen.files.includes(file)), 'start-up chunks left out of the first screen').toEqual([]);
  for (const prefix of MOUNT_CHUNKS) expect(report.firstScreen.files.some((file) => file.startsWith(prefix)), prefix).toBe(true);
  // A chunk fetched after the first paint exists and is no part of what the first screen needs.
  for (const prefix of AFTER_PAINT_CHUNKS) {
    expect(report.chunks.some((c) => c.file.startsWith(prefix)), prefix).toBe(true);
    expect(report.firstScreen.files.some((file) => file.startsWith(prefix)), prefix).toBe(false);
  }
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

test('the first screen loads no script the budget leaves out', async ({ page }) => {
  const counted = new Set(measure(DIR).firstScreen.files);
  await page.goto('./');
  await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 60_000 });
  // The page's own resource timings: a worker's imports are in the worker's, and worker files are not the page's JavaScript.
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
  const scripts = loaded.filter((path) => path.endsWith('.js') && !/\.worker-[\w-]+\.js$/.test(path)).map((path) => path.replace(/^.*?\/(?=assets\/)/, ''));
  console.log(`scripts loaded by the first screen: ${scripts.join(', ')}`);
  expect(scripts.length).toBeGreaterThan(1);
  expect(scripts.filter((file) => !counted.has(file) && !AFTER_PAINT_CHUNKS.some((prefix) => file.startsWith(prefix)))).toEqual([]);
});

function measureSamples(files: string[]) {
  return files.map((file) => ({ file, bytes: statSync(resolve(DIR, file)).size }));
}
