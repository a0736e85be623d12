/**
 * A live session on the local WebLLM model in the production build. This machine has no GPU and
 * no weights, so WebLLM's worker is replaced by e2e/fixtures/fake-webllm-worker.js (same protocol,
 * scripted replies) through the test API: Playwright cannot route the script of a worker started
 * by a worker (the engine worker starts WebLLM's), so the test API hands both a blob: URL. The
 * page gets a fake WebGPU adapter. The session's worker reaches the engine worker's one model
 * through a port: the reply streams, a tool call runs, WebLLM's context-window error is answered
 * by a compaction (summarized by the same model) and one retry, Stop ends a streaming reply, and
 * the model was loaded once for all of it and for a compaction run from the Compact tab. When
 * the engine worker or the session's own worker dies, the session is offered again and goes on.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, fixture, sample, test } from './fixtures/app.ts';

const MODEL = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const FAKE_WORKER = readFileSync(fixture('fake-webllm-worker.js'), 'utf8');

declare global {
  interface Window {
    __fakeWebLLM?: Array<{ kind: string; modelId?: string; finish?: string }>;
  }
}

test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    // A GPU adapter as the browser reports one, WebLLM's weight cache present, and the fake worker's log.
    const adapter = { features: new Set(['shader-f16']), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 31 }, info: { vendor: 'test', architecture: 'test' } };
    if (!sessionStorage.getItem('test.no-gpu')) Object.defineProperty(navigator, 'gpu', { value: { requestAdapter: async () => adapter }, configurable: true });
    void caches.open('webllm/model');
    window.__fakeWebLLM = [];
    new BroadcastChannel('fake-webllm').onmessage = (event: MessageEvent<{ kind: string; modelId?: string; finish?: string }>) => window.__fakeWebLLM!.push(event.data);
  });
});

/** WebLLM's worker replaced by the fake, in the page and in the engine worker. */
async function fakeWebLLM(page: Page, source = FAKE_WORKER): Promise<void> {
  await page.evaluate((code) => (window as unknown as { __foldlab: { fakeWebLLMWorker(source: string): Promise<void> } }).__foldlab.fakeWebLLMWorker(code), source);
}

const requests = (page: Page) => page.evaluate(() => window.__fakeWebLLM ?? []);
const interrupts = async (page: Page) => (await requests(page)).filter((r) => r.kind === 'interrupt').length;
/** Generations the fake engine ended because it was interrupted. */
const stopped = async (page: Page) => (await requests(page)).filter((r) => r.kind === 'end' && r.finish === 'abort').length;

async function chooseLocalModel(page: Page): Promise<void> {
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.local').check();
  const use = page.getByTestId('settings.local').getByRole('radio', { name: `Use ${MODEL}` });
  await expect(use).toBeEnabled({ timeout: 30_000 });
  await use.check();
  await page.getByTestId('settings.close').click();
}

/** Opens the setup, checks what the local option says (and axe), and starts a session on it over the folder fixture. */
async function startLocalSession(page: Page): Promise<void> {
  await page.getByTestId('live.new').click();
  await page.getByTestId('live.setup.folder-input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.setup.model.local-status')).toContainText('Downloaded, not loaded yet');
  const axe = await new AxeBuilder({ page }).include('[data-testid="live.setup"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByTestId('live.setup.model.local').check();
  await page.getByTestId('live.setup.strategy').selectOption('pi');
  await page.getByTestId('live.setup.options').locator('summary').click();
  await page.getByTestId('compact.option.keepRecentTokens').fill('40');
  await page.getByTestId('live.setup.start').click();
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('live.stats')).toContainText(MODEL);
}

const idle = (page: Page) => expect(page.getByTestId('live.phase')).toHaveText('ready', { timeout: 45_000 });

/** A session on the (fake) local model that has answered a first "Hello". */
async function startGreetedSession(page: Page): Promise<void> {
  await fakeWebLLM(page);
  await chooseLocalModel(page);
  await startLocalSession(page);
  const input = page.getByTestId('live.input');
  await input.fill('Hello');
  await input.press('Enter');
  await idle(page);
  await expect(page.getByTestId('live.chat')).toContainText('OK.');
}

test('a live session on the local model: streaming, a tool call, an overflow compacted and retried, Stop', async ({ app, page }) => {
  await fakeWebLLM(page);
  await chooseLocalModel(page);
  await startLocalSession(page);
  const input = page.getByTestId('live.input');
  const chat = page.getByTestId('live.chat');

  // A tool call read from the reply, run over the folder, and the answer after its result.
  await input.fill('What is in this folder?');
  await input.press('Enter');
  await idle(page);
  await expect(chat.getByTestId('live.tool-call').first()).toContainText('ls(');
  await expect(chat).toContainText('The folder holds the tiny-parser project');

  // WebLLM's context-window error: one compaction by the same model, one retry.
  await input.fill('Find every TODO');
  await input.press('Enter');
  await idle(page);
  await expect(page.getByTestId('live.notes')).toContainText(/overflow/i);
  await expect(chat.getByTestId('live.compaction-entry')).toHaveCount(1);
  await expect(chat).toContainText('src/utils/format.py:6');

  // Stop while the reply streams: it stays on screen as not complete, and nothing of it is kept.
  const assistants = await chat.getByTestId('live.entry.assistant').count();
  await input.fill('Tell me a long story');
  await input.press('Enter');
  await expect(page.getByTestId('live.streaming')).toContainText('Once upon a time');
  await page.getByTestId('live.stop').click();
  await idle(page);
  await expect(page.getByTestId('live.unfinished')).toContainText('Once upon a time');
  await expect(chat.getByTestId('live.entry.assistant').filter({ hasText: 'Once upon a time' })).toHaveCount(0);
  await expect(chat.getByTestId('live.entry.assistant')).toHaveCount(assistants);
  await expect.poll(async () => (await requests(page)).filter((r) => r.kind === 'interrupt').length).toBeGreaterThan(0);

  // A compaction in the Compact tab, summarized by the local model of Settings: the same copy.
  const chatsBefore = (await requests(page)).filter((r) => r.kind === 'chat').length;
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.summarizer')).toContainText(MODEL);
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });

  // One copy of the model: loaded once; the session's calls, its summaries and the Compact tab's all went to it.
  const log = await requests(page);
  expect(log.filter((r) => r.kind === 'load')).toEqual([{ kind: 'load', modelId: MODEL }]);
  expect(log.filter((r) => r.kind === 'chat').length).toBeGreaterThan(chatsBefore);
});

test('when the engine holding the model stops, the session is offered again and reloads the model', async ({ app: _app, page }) => {
  await startGreetedSession(page);
  const input = page.getByTestId('live.input');

  await page.evaluate(() => (window as unknown as { __foldlab: { crashEngine(): void } }).__foldlab.crashEngine());
  await expect(page.getByTestId('live.reconnect')).toBeVisible({ timeout: 30_000 });
  // The restarted engine worker is a new one: it gets the fake again.
  await fakeWebLLM(page);
  await page.getByTestId('live.reconnect.input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await input.fill('Hello again');
  await input.press('Enter');
  await idle(page);
  await expect(page.getByTestId('live.chat').getByTestId('live.entry.assistant')).toHaveCount(2);
  expect((await requests(page)).filter((r) => r.kind === 'load')).toHaveLength(2);
});

test('without a downloaded model the option says so and cannot be chosen', async ({ app: _app, page }) => {
  await fakeWebLLM(page);
  await chooseLocalModel(page);
  // From now on WebLLM's cache answers that the model is not there.
  await fakeWebLLM(page, FAKE_WORKER.replace("kind: 'done', value: true", "kind: 'done', value: false"));
  await page.getByTestId('live.new').click();
  await expect(page.getByTestId('live.setup.model.local-status')).toContainText(`${MODEL} is not downloaded: download it in Settings > Models first.`);
  await expect(page.getByTestId('live.setup.model.local')).toBeDisabled();
});

test('without WebGPU the option says so and cannot be chosen', async ({ app: _app, page }) => {
  await fakeWebLLM(page);
  await chooseLocalModel(page);
  // The same browser without a GPU adapter (the local model stays chosen in the preferences).
  await page.evaluate(() => sessionStorage.setItem('test.no-gpu', '1'));
  await page.reload();
  await page.getByTestId('live.new').click();
  await expect(page.getByTestId('live.setup.model.local-status')).toContainText('WebGPU is missing, so the local model cannot run in this browser');
  await expect(page.getByTestId('live.setup.model.local')).toBeDisabled();
});

test("when the session's worker dies mid-reply, the engine stops that reply, and the session opens again on the loaded model", async ({ app: _app, page }) => {
  await startGreetedSession(page);
  const input = page.getByTestId('live.input');

  await input.fill('Tell me a long story');
  await input.press('Enter');
  await expect(page.getByTestId('live.streaming')).toContainText('Once upon a time');
  await page.evaluate(() => (window as unknown as { __foldlab: { crashLiveWorker(): Promise<void> } }).__foldlab.crashLiveWorker());
  await expect(page.getByTestId('live.reconnect.stopped')).toHaveText(
    /^The live session's worker stopped: .*crash requested by the test API\. Its journal is kept .* Open the session again to continue\.$/,
    { timeout: 30_000 },
  );
  // The dead worker's port was released in the engine worker: the reply it was generating was stopped
  // (nobody pressed Stop), by one interrupt however many of its chunks were still on their way.
  await expect.poll(() => stopped(page), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => interrupts(page)).toBe(1);

  await page.getByTestId('live.reconnect.input').setInputFiles(fixture('live-folder'));
  await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId('live.error')).toHaveCount(0);
  // The request for the story is in the journal (its reply is not), so the model, seeing it again, tells the story: Stop it.
  await input.fill('Hello again');
  await input.press('Enter');
  await expect(page.getByTestId('live.streaming')).toContainText('Once upon a time', { timeout: 45_000 });
  await page.getByTestId('live.stop').click();
  await idle(page);
  await expect.poll(() => stopped(page)).toBe(2);
  await expect.poll(() => interrupts(page)).toBe(2);
  await expect(page.getByTestId('live.chat').getByTestId('live.entry.user')).toHaveCount(3);
  await expect(page.getByTestId('live.chat').getByTestId('live.entry.assistant')).toHaveCount(1);
  // One copy of the model, loaded once: the fresh worker was given a new port to it.
  expect((await requests(page)).filter((r) => r.kind === 'load')).toHaveLength(1);
});
