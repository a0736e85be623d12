/**
 * Section 8, the first visit in the browser: the production build in Chromium, main-thread long
 * tasks (> 50 ms) while the generated demo session is seeded on an empty origin, and while a large
 * import (the ~13 MB session) renders after its outcome arrives; for each window also the tasks'
 * own CPU time from a Chromium trace (main-thread-trace.ts). Skipped when no Chromium is found.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cpuHeaviest, traceMainThread, type TracedTask } from './main-thread-trace.ts';
import { buildSite, type LongTask } from './page-probe.ts';
import { CHROMIUM, withoutBasePath, withServedSite } from './processes.ts';
import { duration, fmt, printPairs, printTable } from './report.ts';
import { OUT_DIR, sessionFile } from './session.ts';

/** Port of the preview server. Default 4323. */
export const PORT = 4323;
/** The long-task threshold: a task over this blocks input noticeably. Default 50. Unit: ms. */
export const BLOCKED_MS = 50;
/** Quiet time recorded after each window's last visible change. Default 2,000. Unit: ms. */
export const SETTLE_MS = 2_000;
/** Time allowed for the demo seeding and for the large import. Default 180,000. Unit: ms. */
export const TIMEOUT_MS = 180_000;

const SITE_DIR = resolve(OUT_DIR, 'first-visit-site');

interface ProbeWindow {
  __longTasks: LongTask[];
  __outcomeAt: number[];
  __foldlab?: { imports: unknown[] };
}

/** Runs in the page before its scripts: records long tasks, and when each import outcome arrives. */
function installProbes(): void {
  const w = window as unknown as ProbeWindow;
  w.__longTasks = [];
  w.__outcomeAt = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // The test API is installed by the app's entry module; wrap its imports array once it exists.
  // (No named inner functions: this function is serialized into the page as it is.)
  const timer = setInterval(() => {
    const imports = w.__foldlab?.imports;
    if (!imports) return;
    clearInterval(timer);
    const push = imports.push.bind(imports);
    imports.push = (...items: unknown[]) => {
      w.__outcomeAt.push(performance.now());
      performance.mark('foldlab-outcome');
      return push(...items);
    };
  }, 1);
}

function summarize(label: string, tasks: readonly LongTask[], traced: readonly TracedTask[]): Array<string | number> {
  const over = tasks.filter((t) => t.duration > BLOCKED_MS);
  const longest = tasks.reduce((max, t) => Math.max(max, t.duration), 0);
  const cpuOver = traced.filter((t) => t.cpu > BLOCKED_MS);
  const cpuLongest = traced.reduce((max, t) => Math.max(max, t.cpu), 0);
  return [label, tasks.length, over.length, longest === 0 ? '-' : `${fmt(longest)} ms`, cpuOver.length, cpuLongest === 0 ? '-' : `${fmt(cpuLongest)} ms`, over.length === 0 ? 'met' : 'MISSED'];
}

/** Takes the long tasks recorded so far, and when the import outcomes arrived. */
async function drain(page: Page): Promise<{ tasks: LongTask[]; outcomes: number[] }> {
  return page.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    const tasks = w.__longTasks;
    w.__longTasks = [];
    return { tasks, outcomes: [...w.__outcomeAt] };
  });
}

async function measure(browser: Browser, page: Page, file: string): Promise<void> {
  const started = performance.now();
  let seededMs = 0;
  const seedingTrace = await traceMainThread(browser, page, async () => {
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await page.waitForFunction(() => (window as unknown as ProbeWindow).__outcomeAt.length >= 1, undefined, { timeout: TIMEOUT_MS, polling: 100 });
    await page.getByTestId('totals.total').waitFor({ timeout: TIMEOUT_MS });
    await page.getByTestId('transcript.tool-pair').first().waitFor({ timeout: TIMEOUT_MS });
    seededMs = performance.now() - started;
    await page.waitForTimeout(SETTLE_MS);
  }, BLOCKED_MS);
  const seeding = await drain(page);

  const largeTrace = await traceMainThread(browser, page, async () => {
    await page.setInputFiles('[data-testid="import.input"]', file);
    await page.waitForFunction(() => (window as unknown as ProbeWindow).__outcomeAt.length >= 2, undefined, { timeout: TIMEOUT_MS, polling: 100 });
    await page.waitForFunction(() => !(document.querySelector('[data-testid="conversation.title"]')?.textContent ?? 'Demo').startsWith('Demo'), undefined, { timeout: TIMEOUT_MS, polling: 100 });
    await page.getByTestId('totals.total').waitFor({ timeout: TIMEOUT_MS });
    await page.getByTestId('transcript.tool-pair').first().waitFor({ timeout: TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
  }, BLOCKED_MS);
  const large = await drain(page);
  // The outcome's mark splits the traced tasks as the outcome time splits the long tasks.
  const tracedOutcome = largeTrace.marks.get('foldlab-outcome')?.[0] ?? Number.NaN;
  const tracedRendering = largeTrace.tasks.filter((t) => t.at + t.wall >= tracedOutcome);
  const tracedImporting = largeTrace.tasks.filter((t) => t.at + t.wall < tracedOutcome);
  const outcomeAt = large.outcomes[1] ?? Number.NaN;
  const rendering = large.tasks.filter((t) => t.start + t.duration >= outcomeAt);
  const importing = large.tasks.filter((t) => t.start + t.duration < outcomeAt);

  printPairs([
    ['demo seeded and shown', duration(seededMs)],
    ['large import', `${file} (outcome delivered, then the transcript and totals rendered, then ${SETTLE_MS / 1000} s)`],
  ]);
  console.log();
  printTable(
    ['main-thread window', 'long tasks', `> ${BLOCKED_MS} ms`, 'longest', `CPU > ${BLOCKED_MS} ms`, 'longest CPU', `none > ${BLOCKED_MS} ms`],
    [
      summarize('first visit: load + demo seeded', seeding.tasks, seedingTrace.tasks),
      summarize('large import: while the worker imports', importing, tracedImporting),
      summarize('large import: after the outcome, renders', rendering, tracedRendering),
    ],
  );
  console.log(`  (long tasks: wall time from the long-task API; CPU: the same tasks' own thread time from a Chromium trace, which a loaded machine does not inflate)`);
  const worst = [...seeding.tasks, ...large.tasks].sort((a, b) => b.duration - a.duration).slice(0, 5);
  printPairs([
    ['longest tasks', worst.length === 0 ? 'none' : worst.map((t) => `${fmt(t.duration)} ms at ${fmt(t.start)} ms`).join(', ')],
    ['first visit, most CPU', cpuHeaviest(seedingTrace.tasks)],
    ['large import, most CPU', cpuHeaviest(largeTrace.tasks)],
  ]);
}

export async function firstVisitSection(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`  skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH to run this section).`);
    return;
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const buildMs = await buildSite(SITE_DIR);
  const file = sessionFile();
  printPairs([['vite build', `${duration(buildMs)} -> bench/out/first-visit-site`]]);
  await withServedSite(['vite', 'preview', '--outDir', SITE_DIR, '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], `http://127.0.0.1:${PORT}/`, SITE_DIR, async (browser) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(installProbes);
      await measure(browser, page, file);
    } finally {
      await context.close();
    }
  }, withoutBasePath());
}
