/**
 * What the library keeps across reloads and tabs: model fold summaries are paid for once (a
 * Playwright-routed fake model counts the requests), and a newer schema opened in another tab closes this tab's connections (page and worker) and says so.
 */
import type { Page, Route } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

function sse(text: string): string {
  const base = { id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  return [
    { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

function reply(prompt: string): string {
  const span = /iterations? \d+(?:-\d+)?/.exec(prompt)?.[0] ?? '?';
  if (prompt.includes('{"line":')) return JSON.stringify({ line: `Model phase: ${span} done.` });
  return JSON.stringify({ title: `Model chapter ${span}`, summary: `Model summary of ${span}.`, key_actions: ['ran the tests'], outcomes: ['tests pass'], keywords: ['tests'], entities: ['renderer.py'] });
}

async function openFold(page: Page): Promise<void> {
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
}

test('model fold summaries are paid for once: the app opened again shows the fold view and its summaries from the library', async ({ app, page, context }) => {
  // An import, a model fold of every block and a reload: slow on a loaded machine.
  test.setTimeout(180_000);
  await app.waitForDemo();
  let calls = 0;
  await context.route('https://api.openai.com/**', async (route: Route) => {
    calls++;
    const body = JSON.parse(route.request().postData() ?? '{}') as { messages: Array<{ content: string }> };
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: sse(reply(body.messages.at(-1)?.content ?? '')) });
  });
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-persist');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();

  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await openFold(page);
  await page.getByTestId('fold.summarizer').selectOption('model');
  await expect(page.getByTestId('fold.model-count')).toContainText(/[1-9]\d* made by the model, 0 reused/, { timeout: 60_000 });
  const paid = calls;
  expect(paid).toBeGreaterThan(0);

  // Close the tab and open the app again: a new page and a new worker on the same library.
  await page.close();
  const next = await context.newPage();
  await next.goto('./');
  await openFold(next);
  await expect(next.getByTestId('fold.stored')).toBeVisible();
  await next.getByTestId('fold.summarizer').selectOption('model');
  await expect(next.getByTestId('fold.model-count')).toContainText(/0 made by the model, [1-9]\d* reused/, { timeout: 30_000 });
  await expect(next.getByTestId('fold.stored')).toBeVisible();
  expect(calls).toBe(paid);
});

test('a newer schema opened in another tab: this tab closes the library, says so, stops writing; a reload refuses the newer library untouched', async ({ app, page, context }) => {
  await app.waitForDemo();
  const before = await app.libraryItems().count();
  // A second tab of the same origin opens the library as a far newer Foldlab would (Dexie stores
  // schema vN as IndexedDB version N * 10; 1000 stays above every schema this build knows).
  const other = await context.newPage();
  await other.goto(new URL('favicon.svg', page.url()).href);
  const outcome = await other.evaluate(() => new Promise<string>((resolve) => {
    const request = indexedDB.open('foldlab', 1000);
    request.onupgradeneeded = () => request.result.createObjectStore('fromNewer', { keyPath: 'id' });
    request.onsuccess = () => {
      request.result.close();
      resolve('upgraded');
    };
    request.onerror = () => resolve(`error: ${request.error?.message ?? ''}`);
    // Blocked stays blocked while any connection (the page's or the worker's) is still open.
    setTimeout(() => resolve('still blocked'), 10_000);
  }));
  expect(outcome).toBe('upgraded');
  const banner = page.getByTestId('schema.banner');
  await expect(banner).toContainText('Foldlab was updated in another tab — reload');
  await expect(banner).toHaveAttribute('data-kind', 'updated-elsewhere');

  // Nothing more is written from this tab: a rename fails and is not stored.
  const item = app.libraryItems().first();
  await item.getByTestId('library.item.rename').click();
  await item.getByTestId('library.item.title-input').fill('Written after the upgrade');
  await item.getByTestId('library.item.title-input').press('Enter');
  const titles = await other.evaluate(() => new Promise<string[]>((resolve) => {
    const request = indexedDB.open('foldlab');
    request.onsuccess = () => {
      const all = request.result.transaction('conversations').objectStore('conversations').getAll();
      all.onsuccess = () => {
        resolve((all.result as Array<{ title: string }>).map((row) => row.title));
        request.result.close();
      };
    };
  }));
  expect(titles).toHaveLength(before);
  expect(titles).not.toContain('Written after the upgrade');

  // This (older) build refuses the newer library and deletes nothing.
  await page.reload();
  await expect(page.getByTestId('schema.banner')).toHaveAttribute('data-kind', 'newer');
  await expect(page.getByTestId('schema.banner')).toContainText('saved by a newer version of Foldlab');
  const stores = await other.evaluate(() => new Promise<{ version: number; conversations: number; stores: string[] }>((resolve) => {
    const request = indexedDB.open('foldlab');
    request.onsuccess = () => {
      const db = request.result;
      const count = db.transaction('conversations').objectStore('conversations').count();
      count.onsuccess = () => {
        resolve({ version: db.version, conversations: count.result, stores: [...db.objectStoreNames] });
        db.close();
      };
    };
  }));
  expect(stores.version).toBe(1000);
  expect(stores.conversations).toBe(before);
  expect(stores.stores).toContain('fromNewer');
});
