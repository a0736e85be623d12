/**
 * The probes' judged mode on the real Claude Code session: a remote OpenAI-compatible model,
 * answered by a route in the real streaming wire format, answers one question per category from
 * each final context and grades it; the estimate is shown before anything is sent, the grades
 * table shows what the fake returned, and judging again is answered by the cache (no request).
 * Offline cannot judge; a wrong key (401) shows its error and stores nothing.
 */
import type { BrowserContext, Page, Route } from '@playwright/test';
import { expect, sample, test, type AppPage } from './fixtures/app.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const KEY = 'sk-test-judge-not-a-real-key';
/** The grade the fake judge gives each category. */
const GRADES: Record<string, number> = { artifact: 4, constraint: 3, task: 5, error: 2, identifier: 1, decision: 3 };

interface Seen {
  answers: number;
  grades: number;
  summaries: number;
}

function sse(texts: string[]): string {
  const base = { id: 'chatcmpl-j', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  return [
    ...texts.map((content) => ({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { ...base, choices: [], usage: { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 } },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** api.openai.com answered by kind of prompt: answers, JSON grades (streamed in two pieces), summaries; or 401 for all. */
async function fakeModel(context: BrowserContext, seen: Seen, status = 200): Promise<void> {
  await context.route('https://api.openai.com/**', async (route: Route) => {
    const cors = { 'access-control-allow-origin': '*' };
    if (status !== 200) {
      await route.fulfill({ status, contentType: 'application/json', headers: cors, body: JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }) });
      return;
    }
    const body = JSON.parse(route.request().postData() ?? '{}') as { messages: Array<{ content: string }> };
    const prompt = body.messages.at(-1)?.content ?? '';
    const category = /Question \((\w+)\):/.exec(prompt)?.[1] ?? 'none';
    let texts: string[];
    if (prompt.includes('Answer one question about the session')) {
      seen.answers++;
      texts = ['FAKE ANSWER ', `about ${category}`];
    } else if (prompt.includes('You grade how well an agent answered')) {
      seen.grades++;
      const json = JSON.stringify({ score: GRADES[category] ?? 0, reason: `FAKE REASON for ${category}` });
      texts = [json.slice(0, 10), json.slice(10)];
    } else {
      seen.summaries++;
      texts = ['FAKE SUMMARY: the session changed renderer.py.'];
    }
    await route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'text/event-stream' }, body: sse(texts) });
  });
}

async function configureRemote(page: Page) {
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill(KEY);
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();
}

/** The sample with chars/4 and a 50,000 window, compared under pi and sliding-window. */
async function compareTwo(page: Page, app: AppPage) {
  await app.importFile(CLAUDE);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('50000');
  await page.getByTestId('tab.compare').click();
  await expect(page.getByTestId('compare.window')).toHaveAttribute('data-value', '50000');
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) < 2) await page.getByTestId('compare.config.add').click();
  while ((await rows.count()) > 2) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
  await page.getByTestId('compare.config.0.strategy').selectOption('pi');
  await page.getByTestId('compare.config.1.strategy').selectOption('sliding-window');
  await page.getByTestId('compare.run').click();
  await expect(page.getByTestId('compare.totals.1')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare.totals.0.error')).toHaveCount(0);
}

test('judge with a remote model: estimate first, grades as the model gave them, the second run from the cache', async ({ app, page, context }) => {
  const seen: Seen = { answers: 0, grades: 0, summaries: 0 };
  await fakeModel(context, seen);
  await configureRemote(page);
  await compareTwo(page, app);
  await expect(page.getByTestId('compare.judge.model')).toContainText('openai · gpt-4o-mini');

  // The estimate comes first; nothing is asked of the model until it is confirmed.
  await page.getByTestId('compare.judge.start').click();
  const quote = page.getByTestId('compare.judge.quote');
  await expect(quote).toBeVisible({ timeout: 30_000 });
  const requests = Number(await quote.getAttribute('data-requests'));
  expect(requests).toBeGreaterThanOrEqual(4);
  expect(requests % 2).toBe(0);
  expect(Number(await quote.getAttribute('data-input'))).toBeGreaterThan(10_000);
  expect(Number(await quote.getAttribute('data-cost'))).toBeGreaterThan(0);
  await expect(page.getByTestId('compare.judge.quote.cost')).toContainText('at gpt-4o-mini prices');
  expect(seen.answers + seen.grades).toBe(0);

  await page.getByTestId('compare.judge.confirm').focus();
  await page.keyboard.press('Enter');
  const table = page.getByTestId('compare.judge.grades');
  await expect(table).toBeVisible({ timeout: 60_000 });
  expect(seen.answers).toBe(requests / 2);
  expect(seen.grades).toBe(requests / 2);
  await expect(page.getByTestId('compare.judge.result')).toHaveAttribute('data-requests', String(requests));

  // Every cell is the grade the fake judge gave its category; every question shows its answer and reason.
  const items = page.getByTestId('compare.judge.item');
  await expect(items).toHaveCount(requests / 2);
  const categories = new Set<string>();
  for (const item of await items.all()) categories.add((await item.getAttribute('data-category'))!);
  expect(categories.size).toBeGreaterThan(0);
  for (const config of [0, 1]) {
    for (const category of categories) {
      await expect(page.getByTestId(`compare.judge.grade.${config}.${category}`)).toHaveAttribute('data-value', String(GRADES[category]));
    }
  }
  await page.getByTestId('compare.judge.items.toggle').click();
  const first = items.first();
  const category = (await first.getAttribute('data-category'))!;
  await expect(first.getByTestId('compare.judge.item.answer')).toHaveText(`FAKE ANSWER about ${category}`);
  await expect(first.getByTestId('compare.judge.item.score')).toHaveText(`${GRADES[category]}/5`);
  await expect(first.getByTestId('compare.judge.item.reason')).toHaveText(`FAKE REASON for ${category}`);

  // Judging again: the estimate says nothing will be sent, and nothing is.
  const before = seen.answers + seen.grades;
  await page.getByTestId('compare.judge.start').click();
  await expect(quote).toHaveAttribute('data-requests', '0', { timeout: 30_000 });
  await page.getByTestId('compare.judge.confirm').click();
  await expect(page.getByTestId('compare.judge.result')).toHaveAttribute('data-requests', '0', { timeout: 30_000 });
  await expect(page.getByTestId('compare.judge.usage')).toContainText('no request was sent');
  for (const config of [0, 1]) {
    for (const c of categories) await expect(page.getByTestId(`compare.judge.grade.${config}.${c}`)).toHaveAttribute('data-value', String(GRADES[c]));
  }
  expect(seen.answers + seen.grades).toBe(before);
});

test('offline cannot judge; a wrong key (401) shows the error and stores nothing', async ({ app, page, context }) => {
  const seen: Seen = { answers: 0, grades: 0, summaries: 0 };
  await compareTwo(page, app);
  await expect(page.getByTestId('compare.judge.start')).toBeDisabled();
  await expect(page.getByTestId('compare.judge.unavailable')).toContainText('offline summarizer cannot judge');

  await fakeModel(context, seen, 401);
  await configureRemote(page);
  await expect(page.getByTestId('compare.judge.start')).toBeEnabled();
  await page.getByTestId('compare.judge.start').click();
  await expect(page.getByTestId('compare.judge.quote')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('compare.judge.confirm').click();
  const error = page.getByTestId('compare.judge.error');
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(error).toContainText(/API key|401/i);
  await expect(error).toContainText('nothing was stored');
  expect(await error.textContent()).not.toContain(KEY);
  await expect(page.getByTestId('compare.judge.grades')).toHaveCount(0);
  await expect(page.getByTestId('compare.judge.progress')).toHaveCount(0);
  // Nothing was cached: the estimate still counts every request.
  await page.getByTestId('compare.judge.start').click();
  await expect(page.getByTestId('compare.judge.quote')).not.toHaveAttribute('data-requests', '0', { timeout: 30_000 });
});
