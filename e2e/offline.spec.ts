/**
 * The Pages deploy as a user gets it: the /foldlab/ build, its service worker installed on the
 * first visit, then no network at all: the app reloads from the cache, says it is offline, imports
 * a session file and a precached example, counts, compacts with the offline summarizer and folds.
 * Then a new deploy: the page offers the new version, and its reload waits for running work.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, ROOT, sample, test } from './fixtures/app.ts';

/** WebLLM's worker in the build under test: not precached, cached by the service worker at first use. */
const WEBLLM_WORKER = `assets/${readdirSync(resolve(ROOT, process.env.E2E_OUT ?? 'dist-e2e', 'assets')).find((f) => /^webllm\.worker-[\w-]+\.js$/.test(f))}`;

test.use({ serviceWorkers: 'allow' });

test('after one visit the app opens and works offline', async ({ app, page, context }) => {
  // Two full loads, each counting its open conversation, plus an import, a compaction and a fold.
  test.setTimeout(180_000);
  // The worker is active once its install (the whole precache) has succeeded.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe(process.env.BASE_PATH ?? '/foldlab/');
  await app.waitForDemo();
  // The first install takes control of this page, so what it fetches from now on is cached at first use.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const fetchOk = (url: string) => page.evaluate(async (u) => (await fetch(u).then((r) => r.arrayBuffer().then(() => r.ok), () => false)), url);
  expect(await fetchOk(WEBLLM_WORKER)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Foldlab' })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.getByTestId('app.offline')).toBeVisible();
  await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 90_000 });
  // The notice takes its own room above the page (nothing under it) and closes.
  const notice = await page.getByTestId('app.offline').boundingBox();
  const layout = await page.locator('.layout').boundingBox();
  expect(notice!.y + notice!.height).toBeLessThanOrEqual(layout!.y + 0.5);
  await page.getByTestId('app.offline.close').click();
  await expect(page.getByTestId('app.offline')).toHaveCount(0);
  // The WebLLM library, loaded once while online, comes from the runtime cache.
  expect(await page.evaluate(() => caches.keys())).toContain('foldlab-webllm');
  expect(await fetchOk(WEBLLM_WORKER)).toBe(true);

  // A precached example, fetched through the service worker.
  const before = await app.importCount();
  await page.getByTestId('samples.codex').click();
  await expect.poll(() => app.importCount(), { timeout: 45_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId('conversation.meta')).toContainText('schema-coverage.jsonl');

  // A session file from disk: imported and counted by the (precached) worker and tokenizer tables.
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  expect(await app.totalTokens()).toBeGreaterThan(10_000);

  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });

  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('timeline')).toBeVisible();
});

test('a new deployed version is offered, and its reload waits for running work', async ({ app, page }) => {
  test.setTimeout(120_000);
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await app.waitForDemo();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // A new deploy: the service worker script changes on the server (vite preview reads it per request).
  const swPath = resolve(ROOT, process.env.E2E_OUT ?? 'dist-e2e', 'sw.js');
  const original = readFileSync(swPath, 'utf8');
  try {
    writeFileSync(swPath, `${original}\n// deploy ${Date.now()}\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    await expect(page.getByTestId('update.prompt')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('update.reload')).toBeEnabled();

    // Work that a reload would cut off (a model download, model fold summaries): Reload waits for it.
    await page.evaluate(() => {
      const api = (window as unknown as { __foldlab: { state: () => { beginActivity: (label: string) => () => void } } }).__foldlab;
      (window as unknown as { endTestActivity: () => void }).endTestActivity = api.state().beginActivity('Downloading the model test-model');
    });
    await expect(page.getByTestId('update.reload')).toBeDisabled();
    await expect(page.getByTestId('update.waiting')).toContainText('Downloading the model test-model');
    await page.evaluate(() => (window as unknown as { endTestActivity: () => void }).endTestActivity());
    await expect(page.getByTestId('update.reload')).toBeEnabled();

    // Reload: the waiting worker takes over and the page comes back on the new version.
    const waitingUrl = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.scriptURL);
    expect(waitingUrl).toMatch(/sw\.js$/);
    await Promise.all([page.waitForEvent('load'), page.getByTestId('update.reload').click()]);
    await expect(page.getByRole('heading', { name: 'Foldlab' })).toBeVisible();
    await expect.poll(() => page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration?.waiting === null && registration.active?.state === 'activated';
    })).toBe(true);
    await expect(page.getByTestId('update.prompt')).toHaveCount(0);
  } finally {
    writeFileSync(swPath, original);
  }
});
