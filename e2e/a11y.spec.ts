/**
 * Accessibility: axe-core scans every tab of the app with a conversation loaded (after a compaction
 * run and a comparison, so results are on screen, and a comparison's marker detail open) and the
 * Settings dialog with each summarizer kind; no serious or critical violation is allowed, and no
 * heading-order or scrollable-region-focusable one in the Compare result. (The Live tab is scanned
 * by live-session.spec.ts, the Sweep tab with a result by sweep.spec.ts.) The tabs follow the WAI-ARIA tabs pattern, and a compaction leaves the
 * focus on its result's heading.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';

/** Runs axe on the page (or one part of it) and returns the serious and critical violations, readable. */
async function violations(page: Page, include?: string, alsoRules: readonly string[] = []): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || alsoRules.includes(v.id))
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`);
}

test.describe.configure({ timeout: 180_000 });

test('the transcript, compact and runs tabs pass axe with the demo conversation loaded', async ({ app, page }) => {
  await app.waitForDemo();
  expect.soft(await violations(page), 'transcript tab').toEqual([]);

  await page.getByTestId('tab.compact').click();
  await expect(page.getByTestId('plan.tokens')).toBeVisible({ timeout: 30_000 });
  expect.soft(await violations(page), 'compact tab, plan').toEqual([]);
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').click();
  // A compaction opens its result on the Runs tab, under the runs table: one scan covers both.
  await expect(page.getByTestId('tab.runs')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('runs.table')).toBeVisible();
  expect.soft(await violations(page), 'runs tab with the compaction result').toEqual([]);
});

test('the fold and compare tabs pass axe with their results shown', async ({ app, page }) => {
  await app.waitForDemo();

  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('timeline.block').first()).toBeVisible();
  expect.soft(await violations(page), 'fold tab').toEqual([]);

  // A 30,000-token window, so the demo's replay compacts and its markers open a detail.
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('30000');
  await page.getByTestId('tab.compare').click();
  // One configuration is enough to put every part of a result on screen.
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) > 1) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
  await page.getByTestId('compare.run').click();
  await expect(page.getByTestId('compare.chart')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('compare.totals')).toBeVisible();
  await expect(page.getByTestId('compare.final')).toBeVisible({ timeout: 60_000 });
  // With a compaction's detail open (its summary, what it replaced and its probes, each a scrollable
  // box): it adds to the result and hides none of it, so one scan covers the tab and the detail.
  await page.getByTestId('compare.marker').first().click();
  await expect(page.getByTestId('compare.detail')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compare.probes')).toBeVisible();
  expect.soft(await violations(page, undefined, COMPARE_RULES), 'compare tab with a marker detail open').toEqual([]);
});

/** Moderate rules the Compare result is held to as well. */
const COMPARE_RULES = ['heading-order', 'scrollable-region-focusable'];

test('the tabs follow the WAI-ARIA tabs pattern; after a compaction the focus is on its result', async ({ app, page }) => {
  await app.waitForDemo();
  const tab = (id: string) => page.getByTestId(`tab.${id}`);
  await expect(tab('transcript')).toHaveAttribute('tabindex', '0');
  await expect(tab('compact')).toHaveAttribute('tabindex', '-1');
  await tab('transcript').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab('compact')).toBeFocused();
  await expect(tab('compact')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'tab-compact');
  await page.keyboard.press('End');
  await expect(tab('sweep')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tab('transcript')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tab('sweep')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(tab('transcript')).toHaveAttribute('aria-selected', 'true');
  // Back to Compact, and a compaction run from the keyboard.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('plan.tokens')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compact.run')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('compact.run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('run.heading')).toBeFocused();
});

test('the Settings dialog passes axe for each summarizer kind', async ({ app, page }) => {
  await app.waitForDemo();
  await page.getByTestId('settings.open').click();
  await expect(page.getByTestId('settings.dialog')).toBeVisible();
  expect.soft(await violations(page, '[data-testid="settings.dialog"]'), 'settings, offline').toEqual([]);
  await page.getByTestId('settings.kind.remote').check();
  expect.soft(await violations(page, '[data-testid="settings.dialog"]'), 'settings, remote').toEqual([]);
  // The local models part: the model list with WebGPU, or why local models are unavailable without it.
  if (await page.getByTestId('settings.kind.local').isEnabled()) await page.getByTestId('settings.kind.local').check();
  await expect(page.getByTestId('settings.local').or(page.getByTestId('settings.local.unavailable'))).toBeVisible({ timeout: 30_000 });
  expect.soft(await violations(page, '[data-testid="settings.dialog"]'), 'settings, local models').toEqual([]);
});
