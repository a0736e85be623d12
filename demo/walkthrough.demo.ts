/**
 * The demo walkthrough (`npm run demo`): a real Claude Code session through the main flows, import,
 * count, compact with two strategies, fold, replay and compare, then a live session with the scripted
 * demo model over a small folder; one screenshot per step into docs/demo/ and a Playwright trace of
 * the whole walk. Every step asserts what it shows, so a broken
 * flow fails the demo instead of producing a misleading picture.
 */
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'docs/demo');
/** A trace larger than this stays out of docs/ (in test-results-demo/) to keep the repository small. Default 3 MiB. */
const TRACE_MAX_BYTES = 3 * 1024 * 1024;
/** The folder the live session reads (a directory `<input>` snapshot: headless Chromium has no folder picker). */
const LIVE_FOLDER = resolve(ROOT, 'e2e/fixtures/live-folder');
/** The context window of the walk: small enough that the real session compacts. Unit: tokens. */
const WINDOW = '50000';

const number = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));
const runCount = (page: Page) => page.evaluate(() => (window as unknown as { __foldlab?: { runs: unknown[] } }).__foldlab?.runs.length ?? 0);

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: resolve(OUT, `${name}.png`) });
}

async function compact(page: Page, strategy: string): Promise<void> {
  await page.getByTestId('tab.compact').click();
  await page.getByTestId(`compact.strategy.${strategy}`).check();
  await expect(page.getByTestId('plan.tokens')).toBeVisible();
  await expect(page.getByTestId('compact.run')).toBeEnabled();
  const before = await runCount(page);
  await page.getByTestId('compact.run').click();
  await expect.poll(() => runCount(page), { timeout: 120_000 }).toBeGreaterThan(before);
  const run = page.getByTestId('run');
  await expect(run).toBeVisible();
  const tokensBefore = number(await page.getByTestId('run.tokens').locator('strong').first().textContent());
  const tokensAfter = number(await page.getByTestId('run.tokens-after').textContent());
  expect(tokensAfter, `${strategy}: the context shrinks`).toBeLessThan(tokensBefore);
}

test('walk a real session through import, count, compact, fold, replay and compare, then a live session', async ({ page, context }) => {
  mkdirSync(OUT, { recursive: true });
  // DOM snapshots without the screencast: the trace stays small enough to keep in the repository.
  await context.tracing.start({ screenshots: false, snapshots: true });
  try {
    await test.step('first visit: the generated demo session', async () => {
      await page.goto('./');
      await expect(page.getByTestId('conversation.title')).toContainText('Demo');
      await expect(page.getByTestId('totals.total')).toBeVisible();
      await shot(page, '01-first-visit');
    });

    await test.step('import a real Claude Code session', async () => {
      await page.getByTestId('samples.claude-code').click();
      await expect(page.getByTestId('conversation.title')).not.toContainText('Demo');
      await expect(page.getByTestId('conversation.meta')).toContainText('37f83ec9');
      await expect(page.getByTestId('transcript.tool-pair').first()).toBeVisible();
      await shot(page, '02-import');
    });

    await test.step('count tokens against a 50,000-token window', async () => {
      await page.getByTestId('gauge.preset').selectOption('custom');
      await page.getByTestId('gauge.custom').fill(WINDOW);
      await page.getByTestId('counter.select').selectOption('cl100k');
      // The first cl100k count loads its tables in the worker.
      await expect(page.getByTestId('totals.total')).toBeVisible({ timeout: 120_000 });
      expect(number(await page.getByTestId('totals.total').textContent())).toBeGreaterThan(0);
      await page.getByTestId('counter.select').selectOption('o200k');
      await expect(page.getByTestId('totals.total')).toBeVisible();
      await shot(page, '03-count');
    });

    await test.step('compact with pi', async () => {
      await compact(page, 'pi');
      await shot(page, '04-compact-pi');
    });

    await test.step('compact with augment', async () => {
      await compact(page, 'augment');
      await shot(page, '05-compact-augment');
    });

    await test.step('fold the session (L0-L4)', async () => {
      await page.getByTestId('tab.fold').click();
      await expect(page.getByTestId('fold.summary')).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('timeline.block').first()).toBeVisible();
      await shot(page, '06-fold');
    });

    await test.step('replay and compare two strategies', async () => {
      await page.getByTestId('tab.compare').click();
      await expect(page.getByTestId('compare.window')).toHaveAttribute('data-value', WINDOW);
      await page.getByTestId('compare.config.1.strategy').selectOption('augment');
      await page.getByTestId('compare.run').click();
      await expect(page.getByTestId('compare.totals.1')).toBeVisible({ timeout: 180_000 });
      const chart = page.getByTestId('compare.chart');
      await expect(chart).toHaveAttribute('data-series', '2');
      await chart.scrollIntoViewIfNeeded();
      await shot(page, '07-compare');
    });

    await test.step('a live session with the scripted demo model', async () => {
      await page.getByTestId('live.new').click();
      await expect(page.getByTestId('live.setup')).toBeVisible();
      await page.getByTestId('live.setup.folder-input').setInputFiles(LIVE_FOLDER);
      await expect(page.getByTestId('live.setup.folder-picked')).toContainText('a snapshot');
      await page.getByTestId('live.setup.model.demo').check();
      await page.getByTestId('live.setup.strategy').selectOption('pi');
      await page.getByTestId('live.setup.start').click();
      await expect(page.getByTestId('live.panel')).toBeVisible({ timeout: 30_000 });
      for (const request of ['What is in this folder?', 'Explain @src/parser.py']) {
        await page.getByTestId('live.input').fill(request);
        await page.getByTestId('live.input').press('Enter');
        await expect(page.getByTestId('live.phase')).toHaveText('ready', { timeout: 45_000 });
      }
      const chat = page.getByTestId('live.chat');
      await expect(chat.getByTestId('live.tool-call').first()).toContainText('ls(');
      await expect(chat.getByTestId('live.reminder')).toHaveCount(1);
      await expect(chat).toContainText('parse_number');
      await shot(page, '08-live-session');
    });
  } finally {
    const trace = resolve(OUT, 'trace.zip');
    await context.tracing.stop({ path: trace });
    const size = statSync(trace).size;
    if (size > TRACE_MAX_BYTES) {
      const kept = resolve(ROOT, 'test-results-demo/trace.zip');
      mkdirSync(resolve(ROOT, 'test-results-demo'), { recursive: true });
      rmSync(kept, { force: true });
      renameSync(trace, kept);
      console.log(`demo: the trace is ${(size / 2 ** 20).toFixed(1)} MiB, over the ${TRACE_MAX_BYTES / 2 ** 20} MiB kept in docs/demo/: written to ${kept} (open with npx playwright show-trace).`);
    } else {
      console.log(`demo: trace ${(size / 2 ** 20).toFixed(1)} MiB -> docs/demo/trace.zip (open with npx playwright show-trace docs/demo/trace.zip)`);
    }
  }
});
