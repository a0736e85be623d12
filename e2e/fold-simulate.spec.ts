/**
 * Simulate (F13) in the Fold tab, by keyboard: open the form, pick a range, press Enter, read the
 * before / after / savings; the fold shown above does not change.
 */
import { expect, sample, test } from './fixtures/app.ts';

test('simulating a range shows its savings and leaves the fold as it was', async ({ app, page }) => {
  await app.importFile(sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl'));
  await page.getByTestId('tab.fold').click();
  const summary = page.getByTestId('fold.summary');
  await expect(summary).toBeVisible({ timeout: 30_000 });
  const before = await summary.textContent();

  const panel = page.getByTestId('fold.simulate');
  await panel.locator('summary').focus();
  await page.keyboard.press('Enter');
  const from = page.getByTestId('fold.simulate.from');
  await expect(from).toBeVisible();
  await from.fill('5');
  await from.press('Tab');
  const to = page.getByTestId('fold.simulate.to');
  await expect(to).toBeFocused();
  await to.fill('30');
  await to.press('Enter');

  const result = page.getByTestId('fold.simulate.result');
  await expect(result).toContainText('Iterations 5-30 as one L2 block, by offline', { timeout: 30_000 });
  await expect(page.getByTestId('fold.simulate.savings')).toHaveText(/^[\d,]+ tokens \(\d+% of the range, \d+% of the context\)$/);
  await expect(page.getByTestId('fold.simulate.text')).toContainText('Summary (iterations 5-30)');
  await expect(summary).toHaveText(before!);

  // A range outside the run is refused with the range to pick from.
  await from.fill('5000');
  await from.press('Enter');
  await expect(page.getByTestId('fold.simulate.error')).toContainText('Pick a range within iterations 0-');
});
