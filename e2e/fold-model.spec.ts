/**
 * Fold summaries from a remote model, through a Playwright route that speaks the OpenAI streaming
 * wire format from inside the engine worker: every folded block is indexed by the model except
 * one whose replies are never JSON, which keeps its offline summary with a note saying so.
 */
import type { Page, Route } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

interface FoldViewLike {
  blocks: Array<{ id: string; level: number; title: string; content: string }>;
  notes: string[];
  modelSummaries: { made: number; reused: number };
}

const foldView = (page: Page) => page.evaluate(() => (window as unknown as { __foldlab: { fold?: FoldViewLike } }).__foldlab.fold);

function sse(text: string): string {
  const base = { id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini-2024-07-18' };
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] },
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** A JSON reply fitting the prompt; the first block asked about gets prose every time. */
function reply(prompt: string, state: { bad?: string }): string {
  const span = /iterations? \d+(?:-\d+)?/.exec(prompt)?.[0] ?? '?';
  state.bad ??= span;
  if (span === state.bad) return 'Sure! This part of the session was mostly about the renderer.';
  if (prompt.includes('{"line":')) return JSON.stringify({ line: `Model phase: ${span} done.` });
  if (prompt.includes('{"title":')) {
    return '```json\n' + JSON.stringify({ title: `Model chapter ${span}`, summary: 'The agent reworked the renderer.', key_actions: ['edited renderer.py'], outcomes: ['renderer works'], keywords: ['renderer'], entities: ['renderer.py'] }) + '\n```';
  }
  return JSON.stringify({ summary: `Model summary of ${span}.`, key_actions: ['ran the tests'], outcomes: ['tests pass'], keywords: ['tests'], entities: ['renderer.py'] });
}

test('fold summaries from a remote model; a malformed block keeps the offline summary with a note', async ({ app, page, context }) => {
  const state: { bad?: string } = {};
  let calls = 0;
  await context.route('https://api.openai.com/**', async (route: Route) => {
    calls++;
    const body = JSON.parse(route.request().postData() ?? '{}') as { messages: Array<{ content: string }> };
    await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' }, body: sse(reply(body.messages.at(-1)?.content ?? '', state)) });
  });
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-fold');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();

  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  const offline = (await foldView(page))!;
  expect(offline.modelSummaries.made).toBe(0);
  expect(calls).toBe(0);

  await page.getByTestId('fold.summarizer').selectOption('model');
  const notes = page.getByTestId('fold.notes');
  await expect(notes).toContainText('reply was not JSON', { timeout: 60_000 });
  await expect(notes).toContainText('used the offline summary');
  await expect(page.getByTestId('fold.model-count')).toContainText('made by the model');

  const view = (await foldView(page))!;
  const folded = view.blocks.filter((b) => b.level >= 2);
  expect(view.modelSummaries.made).toBe(folded.length);
  expect(view.notes).toHaveLength(1);
  const badId = view.notes[0]!.split(':')[0]!;
  const chapters = folded.filter((b) => b.level === 3 && b.id !== badId);
  expect(chapters.length).toBeGreaterThan(0);
  for (const chapter of chapters) expect(chapter.title).toMatch(/^Model chapter iteration/);
  const bad = folded.find((b) => b.id === badId)!;
  expect(bad.title).toBe(offline.blocks.find((b) => b.id === badId && b.level === bad.level)?.title);
  // One retry for the bad block, nothing more.
  expect(calls).toBe(folded.length + 1);

  // Back to extraction: the offline titles return, and the model is not asked again.
  await page.getByTestId('fold.summarizer').selectOption('offline');
  await expect.poll(async () => (await foldView(page))?.modelSummaries.made, { timeout: 15_000 }).toBe(0);
  await expect(notes).toHaveCount(0);
  expect(calls).toBe(folded.length + 1);
});
