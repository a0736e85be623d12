/**
 * The Compact tab's hook module in Compare (P8): a configuration with its Hooks box ticked runs the
 * module (in the sandbox worker) at each of its compactions, the same configuration without it does
 * not; a cancel leaves that replay uncompacted and says so under its totals.
 */
import { expect, sample, test } from './fixtures/app.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');

test('a configuration with hooks runs the module: its compactions are cancelled and noted, the one without compacts', async ({ app, page }) => {
  test.slow();
  await app.importFile(CLAUDE);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('50000');
  await page.getByTestId('tab.compact').click();
  await page.locator('details.hooks > summary').click();
  await page.getByTestId('compact.hooks').fill('export function beforeCompact(event) { return { cancel: true, reason: `kept ${event.entries.length} entries` }; }');

  await page.getByTestId('tab.compare').click();
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) < 2) await page.getByTestId('compare.config.add').click();
  while ((await rows.count()) > 2) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
  for (const i of [0, 1]) await page.getByTestId(`compare.config.${i}.strategy`).selectOption('pi');
  await page.getByTestId('compare.config.1.hooks').check();
  await page.getByTestId('compare.run').click();

  await expect(page.getByTestId('compare.totals.1')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('compare.totals.0.label')).toHaveText('pi');
  await expect(page.getByTestId('compare.totals.1.label')).toHaveText('pi + hooks');
  expect(Number(await page.getByTestId('compare.totals.0.compactions').getAttribute('data-value'))).toBeGreaterThan(0);
  await expect(page.getByTestId('compare.totals.1.compactions')).toHaveAttribute('data-value', '0');
  await expect(page.getByTestId('compare.totals')).toContainText(/Call \d+: the before-compact hook cancelled the compaction \(kept \d+ entries\); the replay went on with the context as it was\./);
});
