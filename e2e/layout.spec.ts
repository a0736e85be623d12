/**
 * The page at 1280 x 800, the width of a small laptop: Compare's totals table and final-context
 * columns fit inside the page (nothing runs off its right edge), and the Fold timeline's tooltip is
 * not clipped by the timeline's box.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, sample, test } from './fixtures/app.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const STRATEGIES = ['pi', 'observation-masking', 'sliding-window', 'folding'];

test.use({ viewport: { width: 1280, height: 800 } });

/** Right edge of a box, CSS px. */
const right = async (locator: Locator) => { const box = (await locator.boundingBox())!; return box.x + box.width; };

async function mainRight(page: Page): Promise<number> {
  // The main column's content edge (its padding excluded).
  return page.locator('main.main').evaluate((main) => main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight));
}

test('Compare with four configurations: the totals table and the final contexts fit the page', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.importFile(CLAUDE);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('50000');
  await page.getByTestId('tab.compare').click();
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) < STRATEGIES.length) await page.getByTestId('compare.config.add').click();
  for (const [i, strategy] of STRATEGIES.entries()) await page.getByTestId(`compare.config.${i}.strategy`).selectOption(strategy);
  await page.getByTestId('compare.run').click();
  const table = page.getByTestId('compare.totals');
  await expect(table).toBeVisible({ timeout: 90_000 });
  const final = page.getByTestId('compare.final');
  await expect(final).toBeVisible({ timeout: 60_000 });

  const edge = await mainRight(page);
  expect(edge).toBeLessThanOrEqual(1280);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  // The table itself, not only its scroll box, fits: no column hides past the right edge.
  expect(await right(table)).toBeLessThanOrEqual(edge + 0.5);
  const columns = final.locator('.final-column');
  await expect(columns).toHaveCount(STRATEGIES.length);
  for (let i = 0; i < STRATEGIES.length; i++) expect(await right(columns.nth(i)), `final column ${i}`).toBeLessThanOrEqual(edge + 0.5);
  await page.screenshot({ path: test.info().outputPath('compare-1280.png'), fullPage: false });
});

test('the Fold tooltip of a block is not clipped by the timeline box', async ({ app, page }) => {
  test.setTimeout(120_000);
  await app.importFile(CLAUDE);
  await page.getByTestId('tab.fold').click();
  const block = page.locator('.timeline-block').last();
  await expect(block).toBeVisible({ timeout: 60_000 });
  await block.focus();
  const tooltip = page.getByTestId('timeline.tooltip');
  await expect(tooltip).toBeVisible();
  // No box around the tooltip clips what overflows it.
  const clippedBy = await tooltip.evaluate((tip) => {
    for (let node = tip.parentElement; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      const box = node.getBoundingClientRect();
      const rect = tip.getBoundingClientRect();
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      if (clips && (rect.bottom > box.bottom + 0.5 || rect.right > box.right + 0.5 || rect.top < box.top - 0.5 || rect.left < box.left - 0.5)) return node.className;
    }
    return null;
  });
  expect(clippedBy).toBeNull();
});
