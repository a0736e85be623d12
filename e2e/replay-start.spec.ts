/**
 * Where a replay starts, in the page: on pi's sample with recorded compactions (the last at line
 * 629), Compare and Fold read the whole session by default and say so (471 calls); the labelled
 * Start choice "from the last compaction the agent recorded" narrows them to what followed it (177
 * calls). Each scope is the one `cli eval --json --from ...` reports for the same file.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, ROOT, sample, test } from './fixtures/app.ts';
import { gaugeContext } from '../src/core/compaction/gauge-context.ts';
import { importText } from '../src/core/import/run.ts';
import { activeLeaf, pathTo } from '../src/core/journal/tree.ts';
import { getCounter } from '../src/core/tokens/counters.ts';
import { countEntries } from '../src/core/tokens/entry-tokens.ts';

const PI = sample('pi/before-compaction.jsonl');

interface CliScope { from: string; calls: number; branchCalls: number; note: string }

const scopes: Record<'start' | 'last-compaction', { calls: number; scope: CliScope }> = {} as never;

test.beforeAll(() => {
  for (const from of ['start', 'last-compaction'] as const) {
    const out = execFileSync(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, 'src/cli/main.ts'), 'eval', PI, '--strategies', 'sliding-window', '--counter', 'chars4', '--from', from, '--json'], {
      cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
    });
    const report = JSON.parse(out) as { files: Array<{ calls: number; scope: CliScope }> };
    expect(report.files).toHaveLength(1);
    scopes[from] = report.files[0]!;
  }
  // The figures this test is about: the whole session, and what followed the last recorded compaction.
  expect(scopes.start).toMatchObject({ calls: 471, scope: { from: 'start', calls: 471 } });
  expect(scopes['last-compaction']).toMatchObject({ calls: 177, scope: { from: 'last-compaction', calls: 177, branchCalls: 471 } });
});

/** The gauge's transcript figure for each start, by the function the page uses. */
async function gaugeFigures(): Promise<Record<'start' | 'last-compaction', number>> {
  const { entries } = importText(readFileSync(PI, 'utf8'));
  const { totals } = countEntries(entries, await getCounter('chars4'));
  const whole = pathTo(entries, activeLeaf(entries)!.id);
  return { start: gaugeContext(entries, whole, totals, 'start').transcriptTokens, 'last-compaction': gaugeContext(entries, whole, totals, 'last-compaction').transcriptTokens };
}

/** The Start choice of the visible tab, found by its label as a screen reader would. */
const startChoice = (page: Page, panel: string) => page.getByTestId(panel).getByRole('combobox', { name: 'Start' });

test('Compare: the whole session by default, the narrower scope from the last recorded compaction', async ({ app, page }) => {
  await app.importFile(PI);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('tab.compare').click();
  await page.getByTestId('compare.config.0.strategy').selectOption('sliding-window');
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) > 1) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();

  await expect(page.getByTestId('compare.from')).toHaveValue('start');
  // The gauge counts from the same start: the agent's two compactions left out, then only what its model had.
  const gauge = await gaugeFigures();
  expect(gauge['last-compaction']).toBeLessThan(gauge.start / 2);
  await expect(page.getByTestId('gauge')).toHaveAttribute('data-from', 'start');
  await expect(page.getByTestId('gauge')).toHaveAttribute('data-transcript', String(gauge.start));
  await expect(page.getByTestId('gauge.scope')).toContainText('2 compaction entries the agent recorded not counted');
  await page.getByTestId('compare.run').click();
  const scope = page.getByTestId('compare.result.scope');
  await expect(scope).toHaveAttribute('data-from', 'start', { timeout: 60_000 });
  await expect(scope).toHaveText(scopes.start.scope.note);
  await expect(scope).toContainText('471 calls');
  await expect(page.getByTestId('compare.totals.0.calls')).toHaveAttribute('data-value', '471');

  const choice = page.getByTestId('compare').getByRole('combobox', { name: 'Start' });
  await choice.focus();
  await choice.selectOption('last-compaction');
  await expect(page.getByTestId('compare.from')).toHaveValue('last-compaction');
  await expect(page.getByTestId('gauge')).toHaveAttribute('data-from', 'last-compaction');
  await expect(page.getByTestId('gauge')).toHaveAttribute('data-transcript', String(gauge['last-compaction']));
  await page.getByTestId('compare.run').click();
  await expect(scope).toHaveAttribute('data-from', 'last-compaction', { timeout: 60_000 });
  await expect(scope).toHaveText(scopes['last-compaction'].scope.note);
  await expect(scope).toContainText('line 629');
  await expect(page.getByTestId('compare.totals.0.calls')).toHaveAttribute('data-value', '177');
});

test('Fold: the whole session by default, the narrower scope from the last recorded compaction', async ({ app, page }) => {
  await app.importFile(PI);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('tab.fold').click();
  await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 30_000 });
  const choice = startChoice(page, 'fold');
  await expect(choice).toHaveValue('start');
  const scope = page.getByTestId('fold.scope');
  await expect(scope).toHaveAttribute('data-from', 'start');
  await expect(scope).toHaveText(scopes.start.scope.note);
  const whole = Number((await page.getByTestId('fold.slider').getAttribute('max')) ?? 0) + 1;

  await choice.focus();
  await choice.selectOption('last-compaction');
  await expect(scope).toHaveAttribute('data-from', 'last-compaction', { timeout: 30_000 });
  await expect(scope).toHaveText(scopes['last-compaction'].scope.note);
  await expect(scope).toContainText('177 calls');
  // Fewer iterations to fold: the replay slider covers only what followed the compaction.
  await expect.poll(async () => Number((await page.getByTestId('fold.slider').getAttribute('max')) ?? 0) + 1).toBeLessThan(whole);

  // Back to the whole session.
  await choice.selectOption('start');
  await expect(scope).toHaveAttribute('data-from', 'start', { timeout: 30_000 });
  await expect(scope).toContainText('471 calls');
});
