/**
 * The Sweep tab on the real Claude Code session (chars/4, a 50,000-token window): pi swept over two
 * settings draws every point in the table and on the chart with its front, each point's figures
 * equal `cli sweep --json` for the same ranges, "Use in my agent" hands back a JSON block with the
 * recommended values, the tab passes axe, and a point's button opens its replay in Compare.
 */
import AxeBuilder from '@axe-core/playwright';
import { cliLater, expect, sample, test } from './fixtures/app.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
/** In pi's own order of its options, the order the page's form gives them to the grid. */
const VARY = { reserveTokens: ['8000', '16000', '2'], keepRecentTokens: ['4000', '12000', '2'] } as const;

interface CliSweep {
  points: Array<{ options: Record<string, unknown>; tokensPerTask: number; ratioToUncompacted: number; retention: number; overflowCalls: number; compactions: number }>;
  pareto: number[];
  recommended: number;
}

/** `cli sweep --json` over the same ranges: started before the test, awaited once the page's sweep runs, so both run at once. */
let cliReport: Promise<CliSweep>;

test.beforeAll(() => {
  const vary = Object.entries(VARY).flatMap(([name, [from, to, steps]]) => ['--vary', `${name}=${from}..${to}:${steps}`]);
  cliReport = cliLater(['sweep', CLAUDE, '--strategy', 'pi', ...vary, '--counter', 'chars4', '--window', '50000', '--json']).then((out) => JSON.parse(out) as CliSweep);
  // A failure is reported by the test that awaits it.
  cliReport.catch(() => undefined);
});

test('a sweep over two pi settings draws its points and front, equals the CLI, copies the recommended block and opens a point in Compare from the chart and the table', async ({ app, page, context }) => {
  await app.importFile(CLAUDE);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill('50000');
  await page.getByTestId('tab.sweep').click();
  await page.getByTestId('sweep.strategy').selectOption('pi');
  for (const [name, [from, to, steps]] of Object.entries(VARY)) {
    await page.getByTestId(`sweep.vary.${name}.on`).check();
    await page.getByTestId(`sweep.vary.${name}.from`).fill(from);
    await page.getByTestId(`sweep.vary.${name}.to`).fill(to);
    await page.getByTestId(`sweep.vary.${name}.steps`).fill(steps);
  }
  const run = page.getByTestId('sweep.run');
  await expect(run).toHaveText('Run 4 points × 1 session');
  await run.click();
  const cli = await cliReport;

  const rows = page.getByTestId('sweep.point');
  await expect(rows).toHaveCount(4, { timeout: 60_000 });
  const chart = page.getByTestId('sweep.chart');
  await expect(chart).toHaveAttribute('data-points', '4');
  await expect(chart).toHaveAttribute('data-front', String(cli.pareto.length));
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(chart.locator('.u-legend')).toContainText('Pareto front');
  await expect(chart.locator('.u-legend')).toContainText('overflows the window');
  await expect(chart.locator('.u-legend')).toContainText('recommended');

  // The page's figures are the CLI's, point by point, with the same front and recommendation.
  for (const [i, point] of cli.points.entries()) {
    const row = rows.nth(i);
    await expect(row.locator('td').nth(1)).toHaveText(String(point.options.reserveTokens));
    await expect(row.locator('td').nth(2)).toHaveText(String(point.options.keepRecentTokens));
    await expect(row).toContainText(`${point.ratioToUncompacted.toFixed(3)}x`);
    await expect(row).toContainText(`${(point.retention * 100).toFixed(1)}%`);
    await expect(row).toHaveAttribute('data-front', String(cli.pareto.includes(i)));
  }
  const recommended = cli.points[cli.recommended]!;
  await expect(page.getByTestId('sweep.recommended')).toHaveAttribute('data-index', String(cli.recommended));
  await expect(page.getByTestId('sweep.recommended')).toContainText(`keepRecentTokens=${String(recommended.options.keepRecentTokens)}`);

  // "Use in my agent": pi's compaction block, JSON that parses, with the recommended values.
  const block = page.getByTestId('agent-config');
  await expect(block).toHaveAttribute('data-format', 'json');
  const parsed = JSON.parse((await block.textContent()) ?? '') as { compaction: Record<string, unknown> };
  expect(parsed.compaction).toMatchObject({ keepRecentTokens: recommended.options.keepRecentTokens, reserveTokens: recommended.options.reserveTokens });
  // Copy puts exactly that block on the clipboard and says so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('agent-config.copy').click();
  await expect(page.getByTestId('agent-config.copied')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await block.textContent());

  // The tab with its result passes axe (no serious or critical violation).
  const axe = await new AxeBuilder({ page }).include('[data-testid="sweep"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // A click on a point of the chart opens that point's replay in Compare, as the line under it says (here one off the recommendation).
  await expect(page.getByTestId('sweep.chart.hint')).toHaveText(/Click a point to open its replay in Compare/);
  const picked = cli.points.findIndex((_, i) => i !== cli.recommended);
  await chart.locator('.u-over').scrollIntoViewIfNeeded();
  const over = (await chart.locator('.u-over').boundingBox())!;
  const at = chartPlace(cli.points, picked, over);
  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId('tab.compare')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('compare.totals.0.label')).toHaveText(`pi · sweep point ${picked}`, { timeout: 30_000 });
  await expect(page.getByTestId('compare.totals.0.tokensPerTask')).toHaveAttribute('data-value', String(cli.points[picked]!.tokensPerTask));

  // A point's button (the chart's keyboard twin) opens its replay in Compare.
  await page.getByTestId('tab.sweep').click();
  await rows.nth(cli.recommended).getByTestId('sweep.point.open').click();
  await expect(page.getByTestId('tab.compare')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('compare.totals.0.label')).toHaveText(`pi · sweep point ${cli.recommended}`, { timeout: 30_000 });
  await expect(page.getByTestId('compare.totals.0.tokensPerTask')).toHaveAttribute('data-value', String(recommended.tokensPerTask));
});

/**
 * Where point `index` is drawn on the chart's plot area `box` (page pixels), by the chart's scales:
 * x from 0.05 under the lowest ratio to 0.05 over the highest, y from 0 to 1.02 of retention.
 */
function chartPlace(points: CliSweep['points'], index: number, box: { x: number; y: number; width: number; height: number }) {
  const ratios = points.map((p) => p.ratioToUncompacted);
  const [low, high] = [Math.max(0, Math.min(...ratios) - 0.05), Math.max(...ratios) + 0.05];
  const point = points[index]!;
  return { x: box.x + ((point.ratioToUncompacted - low) / (high - low)) * box.width, y: box.y + (1 - point.retention / 1.02) * box.height };
}
