/**
 * The fold timeline: what it draws matches the folding plan the worker produced, a block opens
 * back to its source entries, a bookmark keeps its iteration at L0 after re-folding, and recall
 * by query finds blocks.
 */
import type { Page } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

interface FoldViewLike {
  timeline: { iterations: number; levels: Record<string, number>; blocks: Array<{ id: string; level: number; from: number; to: number; title: string }>; partitions: Array<{ zone: string; tokens: number }> };
  blocks: Array<{ id: string; from: number; journalFrom: number; journalTo: number; tokens: { original: number } }>;
  tokensBefore: number;
  tokensAfter: number;
  retrieved: Array<{ blockId: string; from: number; to: number }>;
}

const foldView = (page: Page) => page.evaluate(() => (window as unknown as { __foldlab: { fold?: FoldViewLike } }).__foldlab.fold);

test('the timeline draws the worker\'s plan; blocks open to their source; bookmarks stay at L0', async ({ app, page }) => {
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('timeline')).toBeVisible();
  const view = (await foldView(page))!;
  expect(view.timeline.iterations).toBeGreaterThan(50);
  expect(view.tokensAfter).toBeLessThan(view.tokensBefore);

  // Every block the DOM layer offers is a block of the plan, at the plan's level and range.
  const planned = new Map(view.timeline.blocks.map((block) => [block.id, block]));
  const buttons = page.getByTestId('timeline.block');
  await expect(buttons.first()).toBeVisible();
  const shown = await buttons.evaluateAll((elements) => elements.map((el) => ({ id: el.getAttribute('data-block-id') ?? '', label: el.getAttribute('aria-label') ?? '' })));
  expect(shown.length).toBeGreaterThan(0);
  for (const item of shown) {
    const block = planned.get(item.id);
    expect(block, `block ${item.id} is in the plan`).toBeTruthy();
    expect(item.label).toContain(`${block!.from + 1}`);
    expect(item.label).toContain(`L${block!.level}`);
  }

  // Open a folded block: its source entries come from the journal.
  const folded = view.timeline.blocks.find((block) => block.level >= 2 && shown.some((s) => s.id === block.id));
  expect(folded).toBeTruthy();
  await page.locator(`[data-testid="timeline.block"][data-block-id="${folded!.id}"]`).click();
  const detail = page.getByTestId('fold.detail');
  await expect(detail).toBeVisible();
  await expect(detail).toHaveAttribute('data-block-id', folded!.id);
  await expect(page.getByTestId('fold.source').getByTestId('transcript.entry').first()).toBeVisible();

  // Bookmark its first iteration: after re-folding that iteration is at L0.
  expect(view.timeline.levels[String(folded!.from)]).toBeGreaterThan(0);
  await page.getByTestId('fold.bookmark').click();
  await expect.poll(async () => (await foldView(page))?.timeline.levels[String(folded!.from)], { timeout: 15_000 }).toBe(0);

  // Recall: query_history by file name.
  await page.getByTestId('fold.query').fill('renderer.py');
  await expect(page.getByTestId('fold.hits')).toContainText('matching blocks', { timeout: 15_000 });

  // Expand the smallest hit not yet retrieved: the worker recalls it at the current iteration.
  await expect(page.getByTestId('fold.expand').first()).toBeVisible();
  const searched = (await foldView(page))!;
  const offered = new Set(await page.getByTestId('fold.expand').evaluateAll((els) => els.filter((el) => !(el as HTMLButtonElement).disabled).map((el) => el.getAttribute('data-block-id'))));
  const pick = searched.blocks.filter((b) => offered.has(b.id)).sort((a, b) => a.tokens.original - b.tokens.original)[0]!;
  expect(pick).toBeTruthy();
  await page.locator(`[data-testid="fold.expand"][data-block-id="${pick.id}"]`).click();
  await expect(page.locator(`[data-testid="fold.retrieved.item"][data-block-id="${pick.id}"]`)).toBeVisible({ timeout: 15_000 });
  const retrieved = (await foldView(page))!;
  expect(retrieved.retrieved.find((r) => r.blockId === pick.id)).toBeTruthy();
  expect(retrieved.timeline.partitions.find((p) => p.zone === 'retrieved')?.tokens).toBeGreaterThan(0);
  await expect(page.locator(`[data-testid="timeline.retrieved"][data-block-id="${pick.id}"]`)).toHaveCount(1);

  // Keyboard: the timeline zooms and the blocks are reachable by Tab.
  await page.getByTestId('timeline.zoom-in').click();
  await expect(page.getByTestId('timeline.range')).toBeVisible();
  await expect(page.getByTestId('timeline.partitions')).toBeVisible();
});

test('the replay steps through time', async ({ app, page }) => {
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('fold.slider').fill('20');
  await expect.poll(async () => (await foldView(page))?.timeline.iterations, { timeout: 15_000 }).toBe(21);
});
