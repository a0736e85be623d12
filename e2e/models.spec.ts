/**
 * Settings > Models with a remote provider, through Playwright routes that speak the real OpenAI
 * wire format: test connection, a compaction summarized by the "remote" model from inside the
 * engine worker (proving worker requests are intercepted), and a planted canary key that must
 * appear in no export, log, URL or IndexedDB store.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

const CANARY = 'sk-canary-5f1d8e2c9b7a4e63';
const SUMMARY = 'FAKE REMOTE SUMMARY: the session modified renderer.py and transcript.html.';

function sse(chunks: unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

async function fakeOpenAI(context: BrowserContext, requests: Array<{ url: string; auth: string | null; body: string }>, status = 200): Promise<void> {
  await context.route('https://api.openai.com/**', async (route: Route) => {
    const request = route.request();
    requests.push({ url: request.url(), auth: await request.headerValue('authorization'), body: request.postData() ?? '' });
    if (status !== 200) {
      await route.fulfill({ status, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${CANARY}`, type: 'invalid_request_error', code: 'invalid_api_key' } }) });
      return;
    }
    const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
    const words = SUMMARY.split(' ');
    const body = sse([
      ...words.map((word, i) => ({ ...base, choices: [{ index: 0, delta: { content: (i ? ' ' : '') + word }, finish_reason: null }] })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...base, choices: [], usage: { prompt_tokens: 1234, completion_tokens: 20, total_tokens: 1254 } },
    ]);
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body });
  });
}

async function configureRemote(page: Page, remember = false) {
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill(CANARY);
  if (remember) await page.getByTestId('settings.remote.remember').check();
  await page.getByTestId('settings.remote.save').click();
}

async function dumpIndexedDB(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: Record<string, unknown> = {};
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        out[`${info.name}/${store}`] = await new Promise((resolve) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
      }
      db.close();
    }
    return JSON.stringify(out, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
  });
}

test('a remote summarizer compacts from the worker; the key appears nowhere it should not', async ({ app, page, context }) => {
  const requests: Array<{ url: string; auth: string | null; body: string }> = [];
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  await fakeOpenAI(context, requests);

  await configureRemote(page);
  await page.getByTestId('settings.remote.test').click();
  await expect(page.getByTestId('settings.remote.status')).toContainText('Connected');
  await page.getByTestId('settings.close').click();
  await expect(page.getByTestId('settings.open')).toContainText('openai · gpt-4o-mini');

  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.summarizer')).toContainText('openai · gpt-4o-mini');
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  const before = requests.length;
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  // The compaction's requests came from the engine worker and were intercepted.
  expect(requests.length).toBeGreaterThan(before);
  const compactRequest = requests.at(-1)!;
  expect(compactRequest.auth).toBe(`Bearer ${CANARY}`);
  const body = JSON.parse(compactRequest.body) as { stream: boolean; tools?: unknown; messages: Array<{ content: string }> };
  expect(body.stream).toBe(true);
  expect(body.tools).toBeUndefined();
  expect(body.messages.at(-1)?.content).toMatch(/<conversation(-\d+)?>/);
  const row = await page.evaluate(() => (window as unknown as { __foldlab: { runs: Array<{ record: { summarizer: string; summarizer_model: string; summary_usage: { input: number } }; summaries: Record<string, string> }> } }).__foldlab.runs.at(-1));
  expect(row?.record.summarizer).toBe('openai');
  expect(row?.record.summarizer_model).toBe('gpt-4o-mini-2024-07-18');
  expect(Object.values(row?.summaries ?? {}).join('\n')).toContain('FAKE REMOTE SUMMARY');
  await expect(page.getByTestId('run.usage')).toContainText('at gpt-4o-mini prices');

  // Every export, the log, every URL, the console and every IndexedDB store: no key.
  const texts: string[] = [];
  for (const id of ['run.export.openai', 'run.export.anthropic', 'run.export.markdown', 'runs.export']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(id).click()]);
    texts.push(readFileSync((await download.path())!, 'utf8'));
  }
  expect(texts.join('\n')).toContain('FAKE REMOTE SUMMARY');
  for (const text of texts) expect(text).not.toContain(CANARY);
  expect(urls.join('\n')).not.toContain(CANARY);
  expect(consoleLines.join('\n')).not.toContain(CANARY);
  const stores = await dumpIndexedDB(page);
  expect(stores).toContain('compactions');
  expect(stores).not.toContain(CANARY);
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(CANARY);
});

test('remember on this device stores the key apart, and Forget removes it', async ({ app, page }) => {
  void app;
  await configureRemote(page, true);
  await expect.poll(async () => (await dumpIndexedDB(page)).includes(CANARY)).toBe(true);
  const stores = JSON.parse(await dumpIndexedDB(page)) as Record<string, unknown>;
  const holding = Object.entries(stores).filter(([, rows]) => JSON.stringify(rows).includes(CANARY)).map(([name]) => name);
  expect(holding).toEqual(['foldlab-secrets/keys']);
  await page.getByTestId('settings.remote.forget').click();
  await expect(page.getByTestId('settings.remote.key')).toHaveValue('');
  await expect.poll(async () => (await dumpIndexedDB(page)).includes(CANARY)).toBe(false);
});

test('a wrong key is reported as such, without the key', async ({ app, page, context }) => {
  void app;
  await fakeOpenAI(context, [], 401);
  await configureRemote(page);
  await page.getByTestId('settings.remote.test').click();
  const status = page.getByTestId('settings.remote.status');
  await expect(status).toContainText(/key/i);
  expect(await status.textContent()).not.toContain(CANARY);
});

test('without WebGPU the local option is disabled with the reason', async ({ app, page }) => {
  void app;
  await page.getByTestId('settings.open').click();
  await expect(page.getByTestId('settings.kind.local')).toBeDisabled();
  await expect(page.getByTestId('settings.local.unavailable')).toContainText('WebGPU');
});

test('a 429 with retry-after is honoured, and a stream cut mid-way fails the run without storing anything', async ({ app, page, context }) => {
  let calls = 0;
  let mode: 'throttle-then-ok' | 'cut' = 'throttle-then-ok';
  await context.route('https://api.openai.com/**', async (route) => {
    calls++;
    const cors = { 'access-control-allow-origin': '*' };
    if (mode === 'throttle-then-ok' && calls === 1) {
      await route.fulfill({ status: 429, headers: { ...cors, 'retry-after-ms': '50', 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'Rate limit reached for requests per min', type: 'requests', code: 'rate_limit_exceeded' } }) });
      return;
    }
    const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini' };
    const chunk = (content: string) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    // 'cut': the stream ends without [DONE], as when the connection drops mid-way.
    const body = mode === 'cut' ? chunk('Partial summ') : `${chunk('OK')}data: [DONE]\n\n`;
    await route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'text/event-stream' }, body });
  });
  await configureRemote(page);
  await page.getByTestId('settings.remote.test').click();
  await expect(page.getByTestId('settings.remote.status')).toContainText('Connected');
  expect(calls).toBe(2);
  await page.getByTestId('settings.close').click();

  mode = 'cut';
  await app.importFile(sample('pi/v3-small.jsonl'));
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('compact.error')).toContainText(/stream/i, { timeout: 30_000 });
  await expect(page.getByTestId('compact.error')).toContainText('unchanged');
  await page.getByTestId('tab.runs').click();
  await expect(page.getByTestId('runs.empty')).toBeVisible();
});

test('with WebGPU, opening Local models lists them without starting WebLLM before any download', async ({ page }) => {
  // A GPU adapter as the browser reports one (this machine has none).
  await page.addInitScript(() => {
    const adapter = { features: new Set(['shader-f16']), limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 31 }, info: { vendor: 'test', architecture: 'test' } };
    Object.defineProperty(navigator, 'gpu', { value: { requestAdapter: async () => adapter }, configurable: true });
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto('./');
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.local').check();
  await expect(page.getByTestId('settings.local')).toBeVisible();
  await expect(page.getByTestId('settings.local').getByRole('button', { name: 'Download' }).first()).toBeEnabled();
  // The storage figure is shown once every model's "cached" answer is in.
  await expect(page.getByTestId('settings.local')).toContainText('storage used');
  expect(workers.filter((url) => /webllm/i.test(url))).toEqual([]);
});

test('a failed Test connection changes nothing, a preset never carries another\'s model name, and Save makes the summarizer', async ({ app, page, context }) => {
  void app;
  let refused = 0;
  await context.route('http://localhost:8000/**', async (route) => {
    refused++;
    await route.abort('connectionrefused');
  });
  await expect(page.getByTestId('settings.open')).toHaveText('Summarizer: offline');
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('ollama');
  await expect(page.getByTestId('settings.remote.model')).toHaveValue('');
  await expect(page.getByTestId('settings.remote.save')).toBeDisabled();
  await page.getByTestId('settings.remote.model').fill('qwen3:8b');
  await page.getByTestId('settings.remote.preset').selectOption('vllm');
  await expect(page.getByTestId('settings.remote.model')).toHaveValue('');
  await page.getByTestId('settings.remote.model').fill('qwen3:8b');
  await page.getByTestId('settings.remote.test').click();
  const status = page.getByTestId('settings.remote.status');
  await expect(status).toContainText('Test failed:');
  await expect(status).toContainText('Nothing was changed: the summarizer is still offline.');
  expect(refused).toBeGreaterThan(0);
  await page.getByTestId('settings.close').click();
  await expect(page.getByTestId('settings.open')).toHaveText('Summarizer: offline');

  // Saved, the configuration is the summarizer; back on its preset, its model comes back.
  await page.getByTestId('settings.open').click();
  await expect(page.getByTestId('settings.kind.offline')).toBeChecked();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await expect(page.getByTestId('settings.remote.model')).toHaveValue('gpt-4o-mini');
  await page.getByTestId('settings.remote.save').click();
  await expect(status).toContainText('Saved: compaction now summarizes with openai · gpt-4o-mini.');
  await expect(page.getByTestId('settings.remote.save')).toBeDisabled();
  await page.getByTestId('settings.close').click();
  await expect(page.getByTestId('settings.open')).toHaveText('Summarizer: openai · gpt-4o-mini');
});
