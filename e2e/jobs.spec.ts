/**
 * Compactions as guarded, resumable jobs in the real browser: two tabs on one conversation (one
 * Web Lock per conversation; the other tab waits, can cancel, and sees the run through liveQuery),
 * and a reload while a remote summary request hangs (a Playwright route that does not answer).
 */
import type { BrowserContext, Page, Route } from '@playwright/test';
import { AppPage, expect, sample, test } from './fixtures/app.ts';

const SUMMARY = 'RESUMED SUMMARY: the session edited renderer.py.';
const SESSION = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

function sse(text: string): string {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  return [
    { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** A fake OpenAI endpoint that holds every request while `gate.hold` is true. */
async function gatedModel(context: BrowserContext) {
  const gate = { hold: true, requests: 0, waiting: [] as Array<() => void> };
  await context.route('https://api.openai.com/**', async (route: Route) => {
    gate.requests += 1;
    while (gate.hold) await new Promise<void>((resolve) => gate.waiting.push(resolve));
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: sse(SUMMARY) }).catch(() => undefined);
  });
  const release = () => {
    gate.hold = false;
    for (const resolve of gate.waiting.splice(0)) resolve();
  };
  return { gate, release };
}

async function useRemoteModel(page: Page): Promise<void> {
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-jobs');
  // Remembered, so the resumed request after a reload has its key.
  await page.getByTestId('settings.remote.remember').check();
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();
}

/** Rows of one object store of the app's database, read with a connection of its own. */
function rows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('foldlab');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      return await new Promise<T[]>((resolve, reject) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    } finally {
      db.close();
    }
  }, store);
}

async function startCompaction(page: Page): Promise<void> {
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
}

test('two tabs on one conversation: one compaction runs, the other waits or cancels, and sees the run within 2 s', async ({ app, page, context }) => {
  // Two pages, an import and a compaction each: minutes on a busy machine.
  test.setTimeout(240_000);
  const { gate, release } = await gatedModel(context);
  await app.waitForDemo();
  await useRemoteModel(page);
  await app.importFile(SESSION);

  const other = new AppPage(await context.newPage());
  await other.open();
  // The open conversation is a preference shared by the tabs: the second opens the same one.
  await expect(other.page.getByTestId('conversation.meta')).toContainText('37f83ec9', { timeout: 30_000 });

  await startCompaction(page);
  await expect.poll(() => gate.requests, { timeout: 30_000 }).toBeGreaterThan(0);

  await startCompaction(other.page);
  await expect(other.page.getByTestId('job.waiting')).toContainText('running in another tab');
  await other.page.getByTestId('job.cancel').click();
  await expect(other.page.getByTestId('compact.error')).toContainText(/cancel/i);
  await other.page.getByTestId('tab.runs').click();
  await expect(other.page.getByTestId('runs.empty')).toBeVisible();

  release();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  // The other tab's Runs list follows the database (liveQuery), across tabs.
  await expect(other.page.getByTestId('runs.row')).toHaveCount(1, { timeout: 2_000 });
  const runs = await rows<{ summaries: Record<string, string> }>(page, 'compactions');
  expect(runs).toHaveLength(1);
  // Every model request was the first tab's (one per summary of its run): the waiting tab sent none.
  expect(gate.requests).toBe(Object.keys(runs[0]!.summaries).length);
});

test('a reload while the model does not answer: no half-written run, the job is offered again, and resuming stores exactly one run', async ({ app, page, context }) => {
  // Two pages, an import and a compaction each: minutes on a busy machine.
  test.setTimeout(240_000);
  const { gate, release } = await gatedModel(context);
  await app.waitForDemo();
  await useRemoteModel(page);
  await app.importFile(SESSION);
  await startCompaction(page);
  await expect.poll(() => gate.requests, { timeout: 30_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await rows<{ state: string }>(page, 'jobs')).map((job) => job.state)).toEqual(['running']);

  await page.reload();
  const offer = page.getByTestId('resume.job');
  await expect(offer).toHaveCount(1, { timeout: 15_000 });
  await expect(offer).toContainText('Compaction with pi (openai · gpt-4o-mini)');
  expect(await rows(page, 'compactions')).toEqual([]);

  release();
  await offer.getByTestId('resume.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('resume')).toHaveCount(0);
  const runs = await rows<{ id: string; summaries: Record<string, string> }>(page, 'compactions');
  expect(runs).toHaveLength(1);
  expect(Object.values(runs[0]!.summaries).join('\n')).toContain('RESUMED SUMMARY');
  const jobs = await rows<{ state: string; resultId: string }>(page, 'jobs');
  expect(jobs).toEqual([expect.objectContaining({ state: 'done', resultId: runs[0]!.id })]);
  // Nothing is offered again after another reload.
  await page.reload();
  await expect(page.getByTestId('conversation.meta')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('resume')).toHaveCount(0);
});
