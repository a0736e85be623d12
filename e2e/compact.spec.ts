/**
 * Compaction in the UI: each strategy on the real Claude Code session, tokens after < before and
 * equal to the plan's figure, the summary lists the files the session modified and opens back to its source, and the exported
 * OpenAI JSON imports again.
 */
import { readFileSync } from 'node:fs';
import { entryActions, fileLists } from '../src/core/compaction/tool-actions.ts';
import { importText } from '../src/core/import/run.ts';
import { expect, sample, test } from './fixtures/app.ts';
import type { Page } from '@playwright/test';
import type { Entry } from '../src/core/journal/entry.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const JOURNAL = importText(readFileSync(CLAUDE, 'utf8')).entries;

/** Files modified in the journal entries a run summarized (or dropped into its memory block). */
async function modifiedInSummarized(page: Page): Promise<string[]> {
  const run = await page.evaluate(() => {
    const row = (window as unknown as { __foldlab: { runs: Array<{ plan: { fates: string[] }; journalIndex: number[] }> } }).__foldlab.runs.at(-1);
    return row ? { fates: row.plan.fates, journalIndex: row.journalIndex } : undefined;
  });
  expect(run).toBeTruthy();
  const indices = run!.journalIndex.filter((_, i) => run!.fates[i] === 'summarize' || run!.fates[i] === 'drop');
  // A write the user declined changed nothing: it is not a modified file.
  return fileLists(entryActions(indices.map((i) => JOURNAL[i]!).map(withoutDeclinedCalls))).modified;
}

const DECLINED = /^The user doesn't want to proceed with this tool use|\[Request interrupted by user for tool use\]/;
const declinedCalls = new Set(JOURNAL.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_result' && block.content.some((part) => part.type === 'text' && DECLINED.test(part.text)) ? [block.callId] : []))));

function withoutDeclinedCalls(entry: Entry): Entry {
  return { ...entry, blocks: entry.blocks.filter((block) => block.type !== 'tool_call' || !declinedCalls.has(block.callId)) };
}

const CASES: Array<{ strategy: string; options?: Record<string, string>; window?: string }> = [
  { strategy: 'pi' },
  { strategy: 'augment' },
  { strategy: 'layered', options: { keepTurns: '2' } },
  { strategy: 'budget', options: { summaryEnabled: 'true', memoryMaxChars: '4000', memoryMaxLines: '60' }, window: '60000' },
];

const number = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

async function compact(page: Page, strategy: string, options: Record<string, string> = {}) {
  await page.getByTestId('tab.compact').click();
  await page.getByTestId(`compact.strategy.${strategy}`).check();
  for (const [name, value] of Object.entries(options)) {
    const field = page.getByTestId(`compact.option.${name}`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await expect(page.getByTestId('plan.tokens')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  // With the offline summarizer the plan's after figure is counted, not estimated: the run must give it.
  await expect(page.getByTestId('plan.tokens')).toHaveAttribute('data-basis', /^(counted|offline)$/);
  const planned = number(/→\s*([\d,]+)/.exec((await page.getByTestId('plan.tokens').textContent()) ?? '')?.[1] ?? null);
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  expect(number(await page.getByTestId('run.tokens-after').textContent())).toBe(planned);
}

for (const c of CASES) {
  test(`compacts the Claude Code session with ${c.strategy}`, async ({ app, page }) => {
    await app.importFile(CLAUDE);
    if (c.window) {
      await page.getByTestId('gauge.preset').selectOption('custom');
      await page.getByTestId('gauge.custom').fill(c.window);
    }
    await compact(page, c.strategy, c.options);
    const before = number(await page.getByTestId('run.tokens').locator('strong').first().textContent());
    const after = number(await page.getByTestId('run.tokens-after').textContent());
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);

    await page.getByTestId('run.goto-summary').first().click();
    const summary = page.locator('[data-origin="summary"]').first();
    await expect(summary).toBeVisible();
    const text = (await summary.textContent()) ?? '';
    const modified = await modifiedInSummarized(page);
    expect(modified.length).toBeGreaterThan(0);
    for (const path of modified) expect(text, `${c.strategy} summary lists ${path}`).toContain(path);
    const open = summary.getByTestId('run.summary-open');
    if (await open.count()) {
      await open.click();
      await expect(page.getByTestId('run.source').first().getByTestId('transcript.entry').first()).toBeVisible();
    }
    await page.getByTestId('tab.runs').click();
    await expect(page.getByTestId('runs.row')).toHaveCount(1);
  });
}

test('an exported OpenAI context imports again', async ({ app, page }) => {
  await app.importFile(CLAUDE);
  await compact(page, 'pi');
  const count = await page.getByTestId('run.context').getAttribute('aria-label');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('run.export.openai').click()]);
  const path = await download.path();
  expect(path).toBeTruthy();
  const exported = JSON.parse(readFileSync(path!, 'utf8')) as Array<{ role: string }>;
  expect(exported.length).toBeGreaterThan(1);
  await app.importFile(path!);
  const report = await app.reportFor(path!);
  expect(report?.format).toBe('openai-chat');
  expect(report?.toolCalls).toBe(report?.toolResults);
  expect(count).toMatch(/Compacted context, \d+ entries/);
});

test('a bad option value is refused with its name and range, and Compact stays disabled', async ({ app, page }) => {
  await app.importFile(CLAUDE);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await page.getByTestId('compact.option.keepRecentTokens').fill('-5');
  await expect(page.getByTestId('compact.option-error')).toContainText('keepRecentTokens');
  await expect(page.getByTestId('compact.option-error')).toContainText('from 0 to');
  await expect(page.getByTestId('compact.run')).toBeDisabled();
});

test('a conversation too short to compact says so', async ({ app, page }) => {
  await app.importFile(sample('pi/v3-small.jsonl'));
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.layered').check();
  await expect(page.getByTestId('plan.nothing')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compact.run')).toBeDisabled();
});

test('a custom plugin plans in its own worker; a plugin that throws or breaks a rule is refused clearly', async ({ app, page }) => {
  await app.importFile(CLAUDE);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.custom').check();
  await expect(page.getByTestId('plan.trigger')).toContainText('the plugin keeps', { timeout: 30_000 });
  await expect(page.getByTestId('compact.run')).toBeEnabled();
  await page.getByTestId('compact.run').click();
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-origin="summary"]').first()).toBeAttached();

  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.plugin').fill('export default function plan() { throw new Error("boom from the plugin"); }');
  await expect(page.getByTestId('plan.error')).toContainText('boom from the plugin', { timeout: 30_000 });
  // Keeping a tool result without its call breaks a rule: the violation is named.
  await page.getByTestId('compact.plugin').fill('export default function plan(entries) { return { keep: [entries.findIndex((e) => e.result)] }; }');
  await expect(page.getByTestId('plan.error')).toContainText(/call/i, { timeout: 30_000 });
  await page.getByTestId('compact.plugin').fill('export default function plan() { for (;;) {} }');
  await expect(page.getByTestId('plan.error')).toContainText('did not answer within 2,000 ms', { timeout: 30_000 });
});
