/**
 * Section 12, a compare in the browser: the production build in Chromium, the bench's generated
 * ~13 MB Claude Code session (2,320 calls) imported through the page, the Compare tab with four configurations (pi, augment, observation-masking,
 * layered; chars/4, a 50,000-token window), and the main-thread long tasks (> 50 ms) from the click
 * on Compare until the totals table is shown, then while a compaction marker is opened and while
 * the context of its call is shown. Skipped when no Chromium is found. Also timed: decoding each
 * message the page reads from a worker (the opened comparison is the largest), on the main thread.
 *
 * Environment: BENCH_COMPARE_FILE replaces the session (e.g. the real Claude Code sample in
 * public/samples/claude-code, 105 calls); BENCH_COMPARE_PORT the preview server's port.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cpuHeaviest, traceMainThread, type MainThreadTrace, type TracedTask } from './main-thread-trace.ts';
import { buildSite, chromiumMissing, drainLongTasks, type LongTask, type LongTaskWindow, withProbedPage } from './page-probe.ts';
import { duration, fmt, printPairs, printTable } from './report.ts';
import { OUT_DIR, releaseSession, sessionFile } from './session.ts';

/** Port of the preview server (BENCH_COMPARE_PORT overrides it). Default 4333. */
export const PORT = Number(process.env.BENCH_COMPARE_PORT ?? 4333);
/** The long-task threshold: a task over this blocks input noticeably. Default 50. Unit: ms. */
export const BLOCKED_MS = 50;
/** Quiet time recorded after each window's last visible change. Default 1,500. Unit: ms. */
export const SETTLE_MS = 1_500;
/** Time allowed for the import and for the compare. Default 300,000. Unit: ms. */
export const TIMEOUT_MS = 300_000;
/** The configurations compared, in order. */
export const STRATEGIES = ['pi', 'augment', 'observation-masking', 'layered'] as const;
/** The counter and the window of the compare. */
export const COUNTER = 'chars4';
export const WINDOW = 50_000;

const SITE_DIR = resolve(OUT_DIR, 'compare-site');

interface ProbeWindow {
  __foldlab?: { imports: Array<{ conversation: { fileName: string } }> };
}

/** What `installProbes` keeps on `window` besides the long tasks: how long each message's data took to decode (ms), in order. */
interface DecodeWindow {
  __decodes: number[];
  __decodesSeen: number;
}

/** Tasks traced while the compare runs and shows: down to this wall time, so the message and chart tasks are seen even on a quiet machine. Default 16. Unit: ms. */
const TRACE_FLOOR_MS = 16;

/**
 * Runs in the page before its scripts (self-contained, as it is serialized into the page): records
 * every long task, and times the first read of each message's data, which is when the browser
 * decodes (structured-clones) what a worker posted.
 */
function installProbes(): void {
  const w = window as unknown as LongTaskWindow & DecodeWindow;
  w.__longTasks = [];
  w.__decodes = [];
  w.__decodesSeen = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
  const read = data?.get;
  if (!read) return;
  const decoded = new WeakSet<MessageEvent>();
  Object.defineProperty(MessageEvent.prototype, 'data', {
    configurable: true,
    enumerable: data.enumerable ?? true,
    get(this: MessageEvent): unknown {
      if (decoded.has(this)) return read.call(this) as unknown;
      decoded.add(this);
      const started = performance.now();
      const value = read.call(this) as unknown;
      const took = performance.now() - started;
      const n = w.__decodesSeen++;
      w.__decodes.push(took);
      // Marked in the trace (n counts every message) to find the task it ran in; not the many tiny ones.
      if (took >= 1) performance.mark(`decode.${n}`);
      return value;
    },
  });
}

/** The message decodes recorded since the last call: each one's number (as in its mark) and time (ms). */
async function drainDecodes(page: Page): Promise<Array<{ n: number; ms: number }>> {
  return page.evaluate(() => {
    const w = window as unknown as DecodeWindow;
    const first = w.__decodesSeen - w.__decodes.length;
    const taken = w.__decodes.map((ms, i) => ({ n: first + i, ms }));
    w.__decodes = [];
    return taken;
  });
}

/** The longest decodes, and the traced task the longest one ran in (its CPU says what reading the message cost the page). */
function decodeReport(decodes: ReadonlyArray<{ n: number; ms: number }>, trace: MainThreadTrace): string {
  const sorted = [...decodes].sort((a, b) => b.ms - a.ms);
  const longest = sorted[0];
  if (!longest) return 'none';
  const at = trace.marks.get(`decode.${longest.n}`)?.[0];
  const task = at === undefined ? undefined : trace.tasks.find((t) => t.at <= at && at <= t.at + t.wall);
  const where = task ? `in a task of ${fmt(task.cpu)} ms CPU / ${fmt(task.wall)} ms wall` : `in a task under ${TRACE_FLOOR_MS} ms`;
  return `${decodes.length} messages; longest ${sorted.slice(0, 3).map((d) => `${d.ms.toFixed(1)} ms`).join(', ')} (wall), the longest ${where}`;
}

const ms = (value: number) => (value === 0 ? '-' : `${fmt(value)} ms`);

/** One window's row: long tasks (wall time, the long-task API) and, from the trace, the tasks whose own CPU time was over the threshold. */
function row(label: string, tasks: readonly LongTask[], traced: readonly TracedTask[]): Array<string | number> {
  const over = tasks.filter((t) => t.duration > BLOCKED_MS);
  const longest = tasks.reduce((max, t) => Math.max(max, t.duration), 0);
  const blocking = tasks.reduce((sum, t) => sum + Math.max(0, t.duration - BLOCKED_MS), 0);
  const cpuOver = traced.filter((t) => t.cpu > BLOCKED_MS);
  const cpuLongest = traced.reduce((max, t) => Math.max(max, t.cpu), 0);
  const cpu = traced.length === 0 ? '-' : `${fmt(cpuLongest)} ms`;
  return [label, over.length, ms(longest), ms(blocking), traced.length === 0 && over.length > 0 ? '?' : cpuOver.length, cpu, over.length === 0 ? 'met' : 'MISSED'];
}

/** Imports the file through the page's file input and waits until its conversation is open. */
async function importFile(page: Page, file: string): Promise<void> {
  const name = basename(file);
  await page.setInputFiles('[data-testid="import.input"]', file);
  await page.waitForFunction((n) => ((window as unknown as ProbeWindow).__foldlab?.imports ?? []).some((o) => o.conversation.fileName === n), name, { timeout: TIMEOUT_MS, polling: 100 });
  await page.waitForFunction((n) => (document.querySelector('[data-testid="conversation.meta"]')?.textContent ?? '').includes(n), name, { timeout: TIMEOUT_MS, polling: 100 });
}

/** The Compare tab with the counter, the window and one row per strategy. */
async function openCompare(page: Page): Promise<void> {
  await page.getByTestId('counter.select').selectOption(COUNTER);
  await page.getByTestId('gauge.preset').selectOption('custom');
  await page.getByTestId('gauge.custom').fill(String(WINDOW));
  await page.getByTestId('tab.compare').click();
  await page.waitForFunction((w) => document.querySelector('[data-testid="compare.window"]')?.getAttribute('data-value') === w, String(WINDOW), { timeout: TIMEOUT_MS });
  const rows = page.getByTestId('compare.configs').locator('> ol > li');
  while ((await rows.count()) < STRATEGIES.length) await page.getByTestId('compare.config.add').click();
  while ((await rows.count()) > STRATEGIES.length) await page.getByTestId(`compare.config.${(await rows.count()) - 1}.remove`).click();
  for (const [i, strategy] of STRATEGIES.entries()) await page.getByTestId(`compare.config.${i}.strategy`).selectOption(strategy);
}

async function measure(browser: Browser, page: Page, file: string): Promise<void> {
  await page.goto(`http://127.0.0.1:${PORT}/`);
  await page.getByTestId('totals.total').waitFor({ timeout: TIMEOUT_MS }); // the first-visit demo
  await importFile(page, file);
  await page.getByTestId('totals.total').waitFor({ timeout: TIMEOUT_MS });
  await openCompare(page);
  await page.waitForTimeout(SETTLE_MS);
  await drainLongTasks(page);
  await drainDecodes(page);

  const started = performance.now();
  let compareMs = 0;
  const comparingTraced = await traceMainThread(browser, page, async () => {
    await page.getByTestId('compare.run').click();
    await page.getByTestId(`compare.totals.${STRATEGIES.length - 1}`).waitFor({ timeout: TIMEOUT_MS });
    compareMs = performance.now() - started;
    await page.waitForTimeout(SETTLE_MS);
  }, TRACE_FLOOR_MS);
  const comparingTrace = comparingTraced.tasks;
  const comparing = await drainLongTasks(page);
  const decodes = await drainDecodes(page);
  const calls = await page.getByTestId('compare.totals.0.calls').getAttribute('data-value');
  const markers = await page.getByTestId('compare.marker').count();
  const compactions = await Promise.all(STRATEGIES.map((_, i) => page.getByTestId(`compare.totals.${i}.compactions`).getAttribute('data-value')));

  // The first marker of the configuration that compacted most: the largest context to show.
  const most = compactions.reduce((best, c, i) => (Number(c) > Number(compactions[best]) ? i : best), 0);
  const openedAt = performance.now();
  let openMs = 0;
  const { tasks: openingTrace } = await traceMainThread(browser, page, async () => {
    await page.locator(`[data-testid="compare.marker"][data-config="${most}"][data-compaction="0"]`).click();
    await page.getByTestId('compare.detail').waitFor({ timeout: TIMEOUT_MS });
    openMs = performance.now() - openedAt;
    await page.waitForTimeout(SETTLE_MS);
  }, BLOCKED_MS);
  const opening = await drainLongTasks(page);

  const { tasks: contextTrace } = await traceMainThread(browser, page, async () => {
    await page.getByTestId('compare.detail.context').click();
    await page.locator('[data-testid="compare.call"]:not([aria-busy="true"]) [data-testid="compare.call.entry"]').first().waitFor({ timeout: TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
  }, BLOCKED_MS);
  const context = await drainLongTasks(page);

  printPairs([
    ['session', `${basename(file)}: ${calls ?? '?'} calls, ${COUNTER}, window ${fmt(WINDOW)}`],
    ['configurations', STRATEGIES.map((s, i) => `${s} (${compactions[i] ?? '?'} compactions)`).join(', ')],
    ['compare to table shown', `${duration(compareMs)} (${markers} markers listed)`],
    ['marker opened', `${duration(openMs)} (${STRATEGIES[most]}, compaction 1)`],
  ]);
  console.log();
  printTable(
    ['main-thread window', `tasks > ${BLOCKED_MS} ms`, 'longest', `blocked (over ${BLOCKED_MS} ms)`, `CPU > ${BLOCKED_MS} ms`, 'longest CPU', `none > ${BLOCKED_MS} ms`],
    [
      row('compare: run until the table is shown', comparing, comparingTrace),
      row('open a compaction marker', opening, openingTrace),
      row('show the context of its call', context, contextTrace),
    ],
  );
  console.log(`  (tasks: wall time from the long-task API; CPU: the same tasks' own thread time from a Chromium trace, which a loaded machine does not inflate)`);
  const worst = [...comparing, ...opening, ...context].sort((a, b) => b.duration - a.duration).slice(0, 5);
  printPairs([
    ['longest tasks', worst.length === 0 ? 'none' : worst.map((t) => `${fmt(t.duration)} ms at ${fmt(t.start)} ms`).join(', ')],
    ['message decodes', decodeReport(decodes, comparingTraced)],
    ['compare, most CPU', `${cpuHeaviest(comparingTrace)} (tasks over ${TRACE_FLOOR_MS} ms wall)`],
    ['marker, most CPU', cpuHeaviest(openingTrace)],
    ['context, most CPU', cpuHeaviest(contextTrace)],
  ]);
}

export async function compareSection(): Promise<void> {
  if (chromiumMissing()) return;
  const file = process.env.BENCH_COMPARE_FILE ? resolve(process.env.BENCH_COMPARE_FILE) : sessionFile();
  releaseSession();
  if (!existsSync(file)) throw new Error(`BENCH_COMPARE_FILE: no file at ${file}.`);
  mkdirSync(OUT_DIR, { recursive: true });
  const buildMs = await buildSite(SITE_DIR);
  printPairs([['vite build', `${duration(buildMs)} -> bench/out/compare-site`]]);
  await withProbedPage(SITE_DIR, PORT, installProbes, (browser, page) => measure(browser, page, file));
}
