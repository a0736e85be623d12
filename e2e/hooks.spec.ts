/**
 * The user's hook module (P8) in the real browser: each call in its own worker, errors and hangs
 * shown with the run, a supplied summary stored as the run's; augment's memories compression (A11)
 * shown before (plan) and after (run), without the prompt's wrapper tags.
 */
import { expect, sample, test } from './fixtures/app.ts';
import type { Page } from '@playwright/test';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

/** Imports the Claude Code sample and opens it from the library. */
async function openClaude(page: Page) {
  await page.getByTestId('import.input').setInputFiles(CLAUDE);
  const id = () => page.evaluate(() => (window as unknown as { __foldlab?: { imports: Array<{ conversation: { id: string; fileName: string } }> } }).__foldlab?.imports.find((o) => o.conversation.fileName.startsWith('37f83ec9'))?.conversation.id);
  await expect.poll(id, { timeout: 45_000 }).toBeTruthy();
  await page.locator(`[data-conversation-id="${await id()}"]`).getByTestId('library.item.open').click();
  await expect(page.getByTestId('conversation.meta')).toContainText('37f83ec9', { timeout: 15_000 });
}

async function runWithHooks(page: Page, source: string) {
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.hooks').fill(source);
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
}

test('hooks run sandboxed: a throw and a hang are shown and change nothing, a supplied summary is the run\'s; augment memories before and after', async ({ app, page }) => {
  test.slow(); // several runs on the real session
  await app.waitForDemo();
  await openClaude(page);
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.strategy.pi').check();
  await page.locator('details.hooks > summary').click();

  await runWithHooks(page, 'export function beforeCompact() {\n  throw new Error("hook exploded");\n}');
  await expect(page.getByTestId('compact.error')).toContainText('The before-compact hook threw: hook exploded', { timeout: 30_000 });
  await runWithHooks(page, 'export function beforeCompact() { for (;;) {} }');
  await expect(page.getByTestId('compact.error')).toContainText('The before-compact hook did not answer within 2,000 ms and was stopped', { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __foldlab: { runs: unknown[] } }).__foldlab.runs.length)).toBe(0);

  await runWithHooks(page, 'export function beforeCompact(event) { return { summary: `Summary from my hook: ${event.entries.length} entries` }; }');
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  const run = await page.evaluate(() => (window as unknown as { __foldlab: { runs: Array<{ summaries: Record<string, string>; record: { summarizer: string } }> } }).__foldlab.runs.at(-1));
  expect(run?.summaries.history).toMatch(/^Summary from my hook: \d+ entries/);
  expect(run?.record.summarizer).toBe('hook');

  // Augment's memories compression on the same session, hooks removed.
  await page.getByTestId('tab.compact').click();
  await page.getByTestId('compact.hooks.clear').click();
  await page.getByTestId('compact.strategy.augment').check();
  const memories = Array.from({ length: 12 }, (_, i) => `- The user prefers ${i % 2 === 0 ? 'small commits' : 'pnpm'} (note ${i})`).join('\n');
  await page.getByTestId('compact.option.memories').fill(memories);
  await page.getByTestId('compact.option.memoriesMaxLines').fill('5');
  await page.getByTestId('compact.option.compressionTarget').fill('4');
  await page.getByTestId('compact.option.numRecentMemoriesToKeep').fill('2');
  await expect(page.getByTestId('memories')).toContainText('Memories: 12 lines', { timeout: 30_000 });
  await page.getByTestId('memories').locator('summary').click();
  await expect(page.getByTestId('memories.before').locator('li')).toHaveCount(12);
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  const after = page.getByTestId('run').getByTestId('memories');
  await expect(after).toBeVisible({ timeout: 60_000 });
  await after.locator('summary').click();
  await expect(after.getByTestId('memories.after').locator('li')).toHaveCount(4);
  await expect(after.getByTestId('memories.after')).not.toContainText('<memories>');
  await expect(after.getByTestId('memories.after')).not.toContainText(';');
});
