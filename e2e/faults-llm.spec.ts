/**
 * Faults around model calls and the engine worker, in the production build: a rate limit shown as
 * a countdown while the retry waits, the browser going offline while a remote summarizer waits
 * (the page says "waiting for the network" with Cancel, nothing is sent while offline, back online
 * the request is sent again once and the run completes; Cancel stops it), and the engine worker
 * crashing mid-job (the job fails with a clear message, the next job runs on a fresh worker).
 * Remote replies come from Playwright routes speaking OpenAI's wire format.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

// Generous for a loaded machine; each test takes seconds when the machine is idle.
test.describe.configure({ timeout: 150_000 });

const SESSION = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id' };

/** OpenAI's 429 for a requests-per-minute limit: the body, and retry-after in seconds. */
function rateLimited(route: Route, seconds: number): Promise<void> {
  return route.fulfill({
    status: 429,
    headers: { ...CORS, 'content-type': 'application/json', 'retry-after': String(seconds), 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0' },
    body: JSON.stringify({ error: { message: `Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${seconds}s.`, type: 'requests', param: null, code: 'rate_limit_exceeded' } }),
  });
}

function summaryStream(route: Route): Promise<void> {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { content: '## Goal\nRemote summary after the wait.' }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { ...base, choices: [], usage: { prompt_tokens: 900, completion_tokens: 9, total_tokens: 909 } },
  ];
  const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
  return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body });
}

async function useRemote(page: Page): Promise<void> {
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-faults-0000');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();
}

async function startCompaction(page: Page): Promise<void> {
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
}

/** Routes OpenAI; `answer` gets the request's number among those for the same summary task (1 = its first) and whether the browser was offline. */
async function routeOpenAI(context: BrowserContext, answer: (route: Route, attempt: number) => Promise<void>) {
  const perTask = new Map<string, number>();
  const state = { offline: false, offlineCalls: 0, calls: 0 };
  await context.route('https://api.openai.com/**', async (route) => {
    if (route.request().method() !== 'POST') return route.fulfill({ status: 204, headers: { ...CORS, 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' } });
    state.calls++;
    if (state.offline) state.offlineCalls++;
    // The random tag numbers differ per request: without them, the prompt names the task.
    const prompt = (JSON.parse(route.request().postData() ?? '{}') as { messages?: Array<{ content: string }> }).messages?.at(-1)?.content ?? '';
    const key = prompt.replace(/<(\/?[a-z][a-z_-]*?)-\d{24}>/g, '<$1>');
    const attempt = (perTask.get(key) ?? 0) + 1;
    perTask.set(key, attempt);
    return answer(route, attempt);
  });
  return { state, tasks: () => perTask.size, attemptsPerTask: () => [...perTask.values()] };
}

test('a rate limit shows "rate limited — retrying in N s" counting down, then the run completes', async ({ app, page, context }) => {
  const openai = await routeOpenAI(context, (route, attempt) => (attempt === 1 ? rateLimited(route, 3) : summaryStream(route)));
  await app.waitForDemo();
  await useRemote(page);
  await app.importFile(SESSION);
  await startCompaction(page);

  const wait = page.getByTestId('job.wait');
  await expect(wait).toContainText(/^rate limited — retrying in [1-3] s/);
  const first = Number(/in (\d) s/.exec((await wait.textContent()) ?? '')?.[1]);
  // The countdown moves: a later reading is lower (or the retry has started).
  await expect.poll(async () => {
    const text = (await wait.textContent({ timeout: 1000 }).catch(() => null)) ?? '';
    const match = /in (\d) s/.exec(text);
    return !match || Number(match[1]) < first;
  }).toBe(true);

  await expect(page.getByTestId('run')).toBeVisible({ timeout: 30_000 });
  // Each summary task: one rate-limited request, then one that succeeded.
  expect(openai.attemptsPerTask().every((n) => n === 2)).toBe(true);
  const row = await page.evaluate(() => (window as unknown as { __foldlab: { runs: Array<{ summaries: Record<string, string>; provenance?: Array<{ summarizer: string; model: string; sourceHash: string }> }> } }).__foldlab.runs.at(-1));
  expect(Object.values(row?.summaries ?? {}).join('\n')).toContain('Remote summary after the wait.');
  expect(row?.provenance?.[0]).toMatchObject({ summarizer: 'openai', model: 'gpt-4o-mini-2024-07-18' });
  expect(row?.provenance?.[0]?.sourceHash).toMatch(/^fnv1a64:[0-9a-f]{16}$/);
});

test('offline while a remote summarizer waits: "waiting for the network", nothing sent offline, and back online the request is sent once more and the run completes', async ({ app, page, context }) => {
  const openai = await routeOpenAI(context, (route, attempt) => (attempt === 1 ? rateLimited(route, 30) : summaryStream(route)));
  await app.waitForDemo();
  await useRemote(page);
  await app.importFile(SESSION);
  await startCompaction(page);
  await expect(page.getByTestId('job.wait')).toContainText('rate limited — retrying in');

  openai.state.offline = true;
  await context.setOffline(true);
  await expect(page.getByTestId('job.network-wait')).toHaveText('offline — waiting for the network: the request is sent again once you are back online');
  // The job is still there, with its Cancel.
  await expect(page.getByTestId('job.progress').getByTestId('job.cancel')).toBeVisible();
  const sent = openai.state.calls;
  expect(openai.attemptsPerTask().every((n) => n === 1)).toBe(true);

  openai.state.offline = false;
  await context.setOffline(false);
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  // Nothing reached the server while offline; each task that was waiting was sent once more after
  // the network came back (the 429, then the summary), and no task more than that.
  expect(openai.state.offlineCalls).toBe(0);
  expect(openai.state.calls).toBeGreaterThan(sent);
  expect(openai.attemptsPerTask().every((n) => n === 2)).toBe(true);
  const row = await page.evaluate(() => (window as unknown as { __foldlab: { runs: Array<{ summaries: Record<string, string> }> } }).__foldlab.runs.at(-1));
  expect(Object.values(row?.summaries ?? {}).join('\n')).toContain('Remote summary after the wait.');
});

test('Cancel while waiting for the network stops the job: nothing is sent when the network comes back, and local work goes on offline', async ({ app, page, context }) => {
  const openai = await routeOpenAI(context, (route) => rateLimited(route, 30));
  await app.waitForDemo();
  await useRemote(page);
  await app.importFile(SESSION);
  await startCompaction(page);
  await expect(page.getByTestId('job.wait')).toContainText('rate limited — retrying in');

  openai.state.offline = true;
  await context.setOffline(true);
  await expect(page.getByTestId('job.network-wait')).toContainText('waiting for the network');
  await page.getByTestId('job.progress').getByTestId('job.cancel').click();
  await expect(page.getByTestId('job.progress')).toHaveCount(0);
  const sent = openai.state.calls;

  // Local features keep working offline: a file imports and is counted in the worker.
  await app.importFile(sample('pi/v3-small.jsonl'));
  await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 30_000 });
  openai.state.offline = false;
  await context.setOffline(false);
  // Online again, a second import goes through the same worker: still no request was sent again.
  await app.importFile(sample('claude-code/dag_compact_after_rewind.jsonl'));
  expect(openai.state.calls).toBe(sent);
  expect(openai.attemptsPerTask().every((n) => n === 1)).toBe(true);
  expect(openai.state.offlineCalls).toBe(0);
});

test('the connect timeout set in Settings applies to the summary requests and is kept across a reload', async ({ app, page, context }) => {
  // The server never sends its headers.
  await routeOpenAI(context, () => new Promise<void>(() => undefined));
  await app.waitForDemo();
  await useRemote(page);
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.timeouts.total').fill('0');
  await expect(page.getByTestId('settings.timeouts.problem')).toHaveText('The total timeout must be a number of seconds from 1 to 3,600. The value in use stays.');
  await page.getByTestId('settings.timeouts.total').fill('300');
  await page.getByTestId('settings.timeouts.connect').fill('1');
  await expect(page.getByTestId('settings.timeouts.problem')).toHaveCount(0);
  await page.getByTestId('settings.close').click();
  await app.importFile(SESSION);
  await startCompaction(page);
  await expect(page.getByTestId('compact.error')).toContainText('Connect timeout: OpenAI sent no response within 1 s of the request', { timeout: 30_000 });

  await page.reload();
  await page.getByTestId('settings.open').click();
  await expect(page.getByTestId('settings.timeouts.connect')).toHaveValue('1');
  await expect(page.getByTestId('settings.timeouts.idle')).toHaveValue('60');
  await expect(page.getByTestId('settings.timeouts.total')).toHaveValue('300');
});

test('a crashed engine worker fails the running job with a clear message, and the next job works', async ({ app, page, context }) => {
  // The remote summarizer never answers: the compaction is in flight when the worker dies.
  await routeOpenAI(context, () => new Promise<void>(() => undefined));
  await app.waitForDemo();
  await useRemote(page);
  await app.importFile(SESSION);
  await startCompaction(page);
  await expect(page.getByTestId('job.progress')).toBeVisible();

  await page.evaluate(() => (window as unknown as { __foldlab: { crashEngine: () => void } }).__foldlab.crashEngine());
  await expect(page.getByTestId('compact.error')).toContainText('The Foldlab engine (the background worker that imports, counts and compacts) stopped unexpectedly');
  await expect(page.getByTestId('compact.error')).toContainText('It has been restarted: run the job again.');
  await expect(page.getByTestId('job.progress')).toHaveCount(0);

  // The next job runs on a fresh worker: an import, counted.
  await app.importFile(sample('pi/v3-small.jsonl'));
  await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 30_000 });
});
