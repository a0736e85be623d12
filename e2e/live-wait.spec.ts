/**
 * A live-session reply that waits on a 429 says so in the Live tab with the Compact job's wait
 * line ("rate limited — retrying in N s"), then streams once the retry is answered. The model is
 * the remote one of Settings > Models, answered by a Playwright route in OpenAI's wire format.
 */
import type { Route } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';
import { LivePage } from './fixtures/live.ts';

test.describe.configure({ timeout: 150_000 });

const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after, retry-after-ms, x-request-id' };

function rateLimited(route: Route, seconds: number): Promise<void> {
  return route.fulfill({
    status: 429,
    headers: { ...CORS, 'content-type': 'application/json', 'retry-after': String(seconds) },
    body: JSON.stringify({ error: { message: `Rate limit reached for gpt-4o-mini on requests per min (RPM). Please try again in ${seconds}s.`, type: 'requests', param: null, code: 'rate_limit_exceeded' } }),
  });
}

function replyStream(route: Route): Promise<void> {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Answered after the wait.' }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  const body = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
  return route.fulfill({ status: 200, headers: { ...CORS, 'content-type': 'text/event-stream' }, body });
}

test('a live reply rate limited shows "rate limited — retrying in N s", then streams', async ({ app, page, context }) => {
  let calls = 0;
  await context.route('https://api.openai.com/**', async (route) => {
    if (route.request().method() !== 'POST') return route.fulfill({ status: 204, headers: { ...CORS, 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' } });
    calls++;
    return calls === 1 ? rateLimited(route, 3) : replyStream(route);
  });
  await app.waitForDemo();
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-live-wait-0000');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();

  const live = new LivePage(page);
  await live.openSetup();
  await live.snapshot();
  await page.getByTestId('live.setup.model.settings').check();
  await live.begin();
  const input = page.getByTestId('live.input');
  await input.fill('Hello?');
  await input.press('Enter');

  await expect(page.getByTestId('job.wait')).toContainText(/^rate limited — retrying in [1-3] s/);
  await live.idle();
  await expect(page.getByTestId('job.wait')).toHaveCount(0);
  await expect(live.chat()).toContainText('Answered after the wait.');
  expect(calls).toBe(2);
});
