/**
 * The Compare tab on the real Claude Code session with chars/4 and a 50,000-token window: one curve
 * per configuration, totals equal to `cli eval --json` for the same configurations, a compaction
 * marker opens its summary, probes can be dismissed and restored; Cancel stores nothing; a
 * configuration whose (remote) summarizer fails shows its error while the others still report.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { cliLater, expect, sample, test } from './fixtures/app.ts';
import { storedRows } from './fixtures/stored-rows.ts';

const CLAUDE = sample('claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
const STRATEGIES = ['pi', 'observation-masking', 'sliding-window', 'folding'];
const WINDOW = '50000';

interface CliStrategy {
  label: string;
  compactions: number;
  peakTokens: number;
  overflowCalls: number;
  tokensPerTask: number;
  summarizerTokens: { input: number; output: number };
  cost: number | null;
  probes: Record<string, { kept: number; total: number }>;
  summaries: string[];
  series: Array<{ call: number; contextTokens: number; compacted: boolean }>;
  probeList: Array<{ kept: boolean }>;
  trigger: { tokens: number | null } | null;
  warnings: Array<{ kind: string }>;
  error?: string;
}

interface CliRecorded {
  series: Array<{ sentTokens: number | null }>;
  compactions: unknown[];
  tokensPerTask: number;
  peakTokens: number;
  recordedCalls: number;
}

type CliFile = { calls: number; strategies: CliStrategy[]; recorded: CliRecorded | null; unseenPrefix?: { tokens: number; source: string; note: string } };

/** `cli eval --json` over the same configurations: started before the tests, awaited where one first needs it, so it runs while the page works. */
let cliReport: Promise<CliFile>;

test.beforeAll(() => {
  cliReport = cliLater(['eval', CLAUDE, '--strategies', STRATEGIES.join(','), '--counter', 'chars4', '--window', WINDOW, '--json']).then((out) => {
    const report = JSON.parse(out) as { files: CliFile[] };
    expect(report.files).toHaveLength(1);
    return report.files[0]!;
  });
  // A failure is reported by the test that awaits it.
  cliReport.catch(() => undefined);
});

/** Opens the session with chars/4 and a 50,000 window, and the Compare tab with these strategies. */
async function openCompare(page: Page, app: { importFile: (path: string) => Promise<void> }, strategies: readonly string[]) {
  await app.importFile(CLAUDE);
  await page.getByTestId('counter.select').selectOption('chars4');
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill(WINDOW);
  await page.getByTestId('tab.compare').click();
  await expect(page.getByTestId('compare.window')).toHaveAttribute('data-value', WINDOW);
  await expect(page.getByTestId('compare.counter')).toHaveText('chars/4');
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) < strategies.length) await page.getByTestId('compare.config.add').click();
  while ((await rows.count()) > strategies.length) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
  for (const [i, strategy] of strategies.entries()) await page.getByTestId(`compare.config.${i}.strategy`).selectOption(strategy);
}

/** Settings > Models: a remote OpenAI-compatible summarizer whose requests `reply` answers. */
async function remoteSummarizer(page: Page, context: BrowserContext, reply: 'fail' | 'hang') {
  await context.route('https://api.openai.com/**', async (route) => {
    if (reply === 'hang') {
      await new Promise((done) => setTimeout(done, 20_000));
      await route.abort().catch(() => undefined);
      return;
    }
    await route.fulfill({ status: 401, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }) });
  });
  await page.getByTestId('settings.open').click();
  await page.getByTestId('settings.kind.remote').check();
  await page.getByTestId('settings.remote.preset').selectOption('openai');
  await page.getByTestId('settings.remote.model').fill('gpt-4o-mini');
  await page.getByTestId('settings.remote.key').fill('sk-test-not-a-real-key');
  await page.getByTestId('settings.remote.save').click();
  await page.getByTestId('settings.close').click();
}

const value = async (page: Page, testId: string, attribute = 'data-value') => page.getByTestId(testId).getAttribute(attribute);

test('four configurations (memory folding among them): one curve each, totals equal the CLI, a marker opens its summary', async ({ app, page }) => {
  await openCompare(page, app, STRATEGIES);
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await page.getByTestId('compare.run').click();
  const table = page.getByTestId('compare.totals');
  await expect(table).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(`compare.totals.${STRATEGIES.length - 1}`)).toBeVisible();
  const cli = await cliReport;
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  console.log(`main-thread long tasks while comparing ${STRATEGIES.length} configurations: ${longTasks.length}, longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);

  const chart = page.getByTestId('compare.chart');
  await expect(chart).toHaveAttribute('data-series', String(STRATEGIES.length));
  // The agent's own run is one more curve, and a row of the totals labelled as such, with the CLI's figures.
  expect(cli.recorded).not.toBeNull();
  await expect(chart).toHaveAttribute('data-recorded', String(cli.recorded!.series.length));
  await expect(chart.locator('.u-legend .u-series')).toHaveCount(2 + STRATEGIES.length);
  // The unseen prefix every curve includes is a band of its own under them, the CLI's figure, named.
  expect(cli.unseenPrefix!.source).toBe('recorded');
  await expect(chart).toHaveAttribute('data-prefix', String(cli.unseenPrefix!.tokens));
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`Shaded from 0: ${cli.unseenPrefix!.tokens.toLocaleString('en-US')} not in the transcript: system prompt and tool definitions \\(recorded at call \\d+\\), included in every curve`));
  await expect(page.getByTestId('compare.prefix')).toHaveText(`Shaded band from 0: ${cli.unseenPrefix!.note}`);
  await expect(page.getByTestId('compare.totals.recorded')).toContainText('As recorded (the agent\'s own run)');
  expect(await value(page, 'compare.totals.recorded.tokensPerTask')).toBe(String(cli.recorded!.tokensPerTask));
  expect(await value(page, 'compare.totals.recorded.peakTokens')).toBe(String(cli.recorded!.peakTokens));
  expect(await value(page, 'compare.totals.recorded.compactions')).toBe(String(cli.recorded!.compactions.length));

  for (const [i, expected] of cli.strategies.entries()) {
    expect(expected.error).toBeUndefined();
    await expect(page.getByTestId(`compare.totals.${i}.label`)).toHaveText(expected.label);
    expect(await value(page, `compare.totals.${i}.calls`)).toBe(String(cli.calls));
    expect(await value(page, `compare.totals.${i}.compactions`)).toBe(String(expected.compactions));
    expect(await value(page, `compare.totals.${i}.peakTokens`)).toBe(String(expected.peakTokens));
    expect(await value(page, `compare.totals.${i}.overflowCalls`)).toBe(String(expected.overflowCalls));
    expect(await value(page, `compare.totals.${i}.tokensPerTask`)).toBe(String(expected.tokensPerTask));
    expect(await value(page, `compare.totals.${i}.summarizer`, 'data-input')).toBe(String(expected.summarizerTokens.input));
    expect(await value(page, `compare.totals.${i}.summarizer`, 'data-output')).toBe(String(expected.summarizerTokens.output));
    expect(await value(page, `compare.totals.${i}.cost`)).toBe(expected.cost === null ? '' : String(expected.cost));
    expect(await value(page, `compare.totals.${i}.trigger`)).toBe(String(expected.trigger?.tokens ?? ''));
    await expect(page.getByTestId(`compare.totals.${i}.warnings`).locator('li')).toHaveCount(expected.warnings.length);
    for (const [category, score] of Object.entries(expected.probes)) {
      expect(await value(page, `compare.totals.${i}.score.${category}`, 'data-kept'), `${expected.label} ${category} kept`).toBe(String(score.kept));
      expect(await value(page, `compare.totals.${i}.score.${category}`, 'data-total'), `${expected.label} ${category} total`).toBe(String(score.total));
    }
  }

  // Under each final context, what it lost: the probes the CLI reports as not kept.
  for (const [i, expected] of cli.strategies.entries()) {
    const lost = expected.probeList.filter((probe) => !probe.kept).length;
    await expect(page.getByTestId(`compare.final.${i}.lost`).getByTestId('compare.probe-outcome')).toHaveCount(lost);
  }

  // One marker per compaction; pi's first one opens with the summary the CLI wrote for it.
  const total = cli.strategies.reduce((sum, s) => sum + s.compactions, 0);
  await expect(page.getByTestId('compare.marker')).toHaveCount(total);
  const pi = cli.strategies[0]!;
  expect(pi.compactions).toBeGreaterThan(0);
  await page.locator('[data-testid="compare.marker"][data-config="0"][data-compaction="0"]').click();
  const detail = page.getByTestId('compare.detail');
  await expect(detail).toBeVisible();
  await expect(detail.getByTestId('compare.detail.trigger')).not.toBeEmpty();
  // The summary renders as markdown: every line the CLI wrote shows, its markers read as structure.
  const shown = normalizeMarkdownText(await detail.getByTestId('compare.detail.summary').first().innerText());
  const lines = pi.summaries[0]!.split('\n').map(markdownLineText).filter((line) => line !== '');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(shown, line).toContain(line);
  await expect(detail.getByTestId('compare.detail.removed').locator('li').first()).toBeVisible();

  // The context at a call, typed by number: its tokens are the CLI's series value for that call.
  const series = cli.strategies[1]!.series;
  await page.getByTestId('compare.call.config').selectOption('1');
  await page.getByTestId('compare.call.input').fill('40');
  await expect(page.getByTestId('compare.call.tokens')).toHaveText(series[39]!.contextTokens.toLocaleString('en-US'));
  await expect(page.getByTestId('compare.call.entry').first()).toBeVisible();
  // A click on a curve picks a call of the configuration nearest to it.
  // Measured in view: a click outside the viewport reaches nothing.
  await chart.locator('.u-over').scrollIntoViewIfNeeded();
  const over = await chart.locator('.u-over').boundingBox();
  await page.mouse.click(over!.x + over!.width * 0.25, over!.y + over!.height - 2);
  await expect(page.getByTestId('compare.call.input')).not.toHaveValue('40');

  // The run was saved; a probe can be dismissed and restored.
  await expect(page.getByTestId('compare.saved.item')).toHaveCount(1);
  const group = page.locator('[data-testid^="compare.probes."] > summary').first();
  await group.click();
  await page.getByTestId('compare.probe.dismiss').first().click();
  await expect(page.getByTestId('compare.probes.dismissed')).toHaveAttribute('data-value', '1');
  await page.getByTestId('compare.probes.restore').click();
  await expect(page.getByTestId('compare.probes.dismissed')).toHaveAttribute('data-value', '0');

  // The saved comparison's JSON and CSV files carry the page's names and figures (read in one go).
  const saved = page.getByTestId('compare.saved.item');
  const onPage = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid^="compare.totals."]')].map((el) => [
    el.getAttribute('data-testid')!, { text: el.textContent, value: el.getAttribute('data-value'), kept: el.getAttribute('data-kept'), total: el.getAttribute('data-total') },
  ])));
  const labels = cli.strategies.map((_, i) => onPage[`compare.totals.${i}.label`]!.text);
  const json = await downloaded(page, 'compare.saved.json');
  expect(json.name).toMatch(/\.compare\.json$/);
  const file = JSON.parse(json.text) as { name: string; request: { counter: string; contextWindow: number }; result: { results: Array<{ label: string; totals: { tokensPerTask: number; peakTokens: number; compactions: number } }> } };
  expect(file.name).toBe(await saved.getByTestId('compare.saved.open').textContent());
  expect(file.request).toMatchObject({ counter: 'chars4', contextWindow: Number(WINDOW) });
  expect(file.result.results.map((r) => r.label)).toEqual(labels);
  expect(file.result.results.map((r) => [r.totals.tokensPerTask, r.totals.peakTokens, r.totals.compactions].map(String)))
    .toEqual(labels.map((_, i) => ['tokensPerTask', 'peakTokens', 'compactions'].map((column) => onPage[`compare.totals.${i}.${column}`]!.value)));
  const csv = await downloaded(page, 'compare.saved.csv');
  expect(csv.name).toMatch(/\.compare\.csv$/);
  const [header, ...csvRows] = parseCsv(csv.text);
  expect(csvRows.map((cells) => cells[header!.indexOf('label')])).toEqual(labels);
  for (const [i, cells] of csvRows.entries()) {
    const cell = (column: string) => cells[header!.indexOf(column)];
    expect(cell('tokens_per_task')).toBe(onPage[`compare.totals.${i}.tokensPerTask`]!.value);
    expect(cell('overflow_calls')).toBe(onPage[`compare.totals.${i}.overflowCalls`]!.value);
    for (const category of Object.keys(cli.strategies[i]!.probes)) {
      const score = onPage[`compare.totals.${i}.score.${category}`]!;
      expect([cell(`${category}_kept`), cell(`${category}_total`)], `${labels[i]} ${category}`).toEqual([score.kept, score.total]);
    }
  }

  // Delete asks first; then the comparison is gone from the list, the view and the library.
  await saved.getByTestId('compare.saved.delete').click();
  await page.getByTestId('confirm.ok').click();
  await expect(page.getByTestId('compare.saved.empty')).toBeVisible();
  await expect(table).toBeHidden();
  expect((await storedRows(page)).comparisons).toBe(0);
});

test('Cancel stops a running compare and saves nothing', async ({ app, page, context }) => {
  await remoteSummarizer(page, context, 'hang');
  await openCompare(page, app, ['pi', 'sliding-window']);
  await page.getByTestId('compare.run').click();
  const progress = page.getByTestId('compare.progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('configuration 1 of 2', { timeout: 30_000 });
  await progress.getByTestId('job.cancel').click();
  await expect(page.getByTestId('compare.cancelled')).toBeVisible({ timeout: 15_000 });
  await expect(progress).toBeHidden();
  await expect(page.getByTestId('compare.saved.empty')).toBeVisible();
  await expect(page.getByTestId('compare.run')).toBeEnabled();
});

test('a configuration whose summarizer fails shows its error; the others still report', async ({ app, page, context }) => {
  await remoteSummarizer(page, context, 'fail');
  await openCompare(page, app, ['pi', 'sliding-window']);
  await page.getByTestId('compare.run').click();
  await expect(page.getByTestId('compare.totals')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare.totals.0.error')).toBeVisible();
  await expect(page.getByTestId('compare.totals.0.error')).toContainText(/401|API key/i);
  const cli = await cliReport;
  const window = cli.strategies.find((s) => s.label === 'sliding-window')!;
  expect(await value(page, 'compare.totals.1.calls')).toBe(String(cli.calls));
  expect(await value(page, 'compare.totals.1.tokensPerTask')).toBe(String(window.tokensPerTask));
  await expect(page.getByTestId('compare.chart')).toHaveAttribute('data-series', '2');
  // The saved run's JSON keeps the failure and names the remote model, never its key.
  const json = await downloaded(page, 'compare.saved.json');
  const file = JSON.parse(json.text) as { request: { remote?: { model?: string } }; result: { results: Array<{ error?: string }> } };
  expect(file.request.remote?.model).toBe('gpt-4o-mini');
  expect(file.result.results[0]!.error).toMatch(/401|API key/i);
  expect(json.text).not.toContain('sk-test-not-a-real-key');
});

/** Clicks a button that saves a file: the file's suggested name and its text. */
async function downloaded(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

/** Rows of cells of a CSV text (quoted cells with "" inside, no line break in a cell), as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\n').map((line) => {
    const cells = [...`${line},`.matchAll(/"((?:[^"]|"")*)",|([^,]*),/g)];
    return cells.map(([, quoted, plain]) => (quoted === undefined ? plain! : quoted.replace(/""/g, '"')));
  });
}

/** Text with inline markdown markers dropped and whitespace collapsed, as compared above. */
function normalizeMarkdownText(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
}

/** A markdown source line's words, without the heading, list, checkbox or quote marker it starts with. */
function markdownLineText(line: string): string {
  return normalizeMarkdownText(line.replace(/^\s*(#{1,6}\s+|>\s*|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)/, ''));
}
