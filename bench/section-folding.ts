/**
 * Section 6, memory folding: the folding plan at 1k/10k/100k synthetic iterations and the update
 * after one more iteration (fold-plan.ts); the timeline's frame plan (`planTimeline`) on 100k
 * synthetic iterations in Node; frame intervals while panning/zooming the Fold timeline of the
 * ~13 MB session in the app, and of 100k synthetic iterations on a bench page (timeline-browser.ts),
 * in Chromium. It only prints figures. The preview servers are always stopped.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { syntheticTimeline } from '../src/ui/timeline/bench-data.ts';
import { fitViewport, planTimeline, zoomAt } from '../src/ui/timeline/geometry.ts';
import { exited, start, withServedSite } from './processes.ts';
import { planSection } from './fold-plan.ts';
import { timelineBrowserPart } from './timeline-browser.ts';
import { duration, fmt, median, printPairs, printTable } from './report.ts';
import { OUT_DIR, releaseSession, sessionFile } from './session.ts';

/** Port of the preview server (section 3 uses 4317). Default 4319. */
export const PORT = 4319;
/** Key presses sent to the timeline canvas. Default 60. */
export const KEY_PRESSES = 60;
/** One frame at 60 Hz. Unit: ms. */
const FRAME_MS = 1000 / 60;
const TIMEOUT_MS = 120_000;

const SITE_DIR = resolve(OUT_DIR, 'fold-site');
// ---------------------------------------------------------------------------------------------
// 2a. Timeline frame plan in Node (100k synthetic iterations)

function geometrySection(): void {
  const n = 100_000;
  const buildStart = performance.now();
  const data = syntheticTimeline(n);
  const buildMs = performance.now() - buildStart;
  const width = 1200;
  const height = 220;
  const rows: (string | number)[][] = [];
  const views: Array<[string, ReturnType<typeof fitViewport>]> = [];
  const fit = fitViewport(width, n);
  views.push(['fit (whole run)', fit]);
  views.push(['zoom ×8 mid', zoomAt(fit, 8, width / 2, width, n)]);
  views.push(['zoom ×400 mid', zoomAt(fit, 400, width / 2, width, n)]);
  for (const [label, viewport] of views) {
    const times: number[] = [];
    let runs = 0;
    let rects = 0;
    for (let k = 0; k < 30; k++) {
      const start = performance.now();
      const plan = planTimeline(data, viewport, width, height, n - 1);
      times.push(performance.now() - start);
      runs = plan.runs.length;
      rects = plan.rects.length;
    }
    const sorted = [...times].sort((a, b) => a - b);
    rows.push([label, duration(median(times)), duration(sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN), fmt(runs), fmt(rects)]);
  }
  printPairs([['synthetic timeline', `${fmt(n)} iterations, ${fmt(data.blocks.length)} blocks, ${fmt(data.moments.length)} moments (built in ${duration(buildMs)})`]]);
  printTable(['viewport (1200 px)', 'planTimeline median', 'p95', 'cell runs', 'block rects'], rows);
  console.log('  (plan only: the canvas itself is drawn in Chromium below, on the 13 MB session and on 100k iterations)');
}

// ---------------------------------------------------------------------------------------------
// 2b. Browser: pan/zoom the Fold timeline of the 13 MB session

interface Probe {
  __frames: number[];
  __tasks: number[];
  __recording: boolean;
  __foldlab?: { imports: unknown[]; fold?: { timeline: { iterations: number; blocks: unknown[] }; totalIterations: number } };
}

/**
 * Runs before the page's scripts: records frame timestamps while recording, and long tasks. A
 * string, not a function: tsx (esbuild keepNames) would wrap inner functions in a `__name` helper
 * that does not exist in the page.
 */
const PROBES = `
  window.__frames = [];
  window.__tasks = [];
  window.__recording = false;
  new PerformanceObserver((list) => {
    if (!window.__recording) return;
    for (const entry of list.getEntries()) window.__tasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: false });
  requestAnimationFrame(function tick(t) {
    if (window.__recording) window.__frames.push(t);
    requestAnimationFrame(tick);
  });
`;

async function drive(page: Page, file: string): Promise<void> {
  await page.goto(`http://127.0.0.1:${PORT}/`);
  await page.waitForFunction(() => ((window as unknown as Probe).__foldlab?.imports.length ?? 0) >= 1, undefined, { timeout: TIMEOUT_MS, polling: 100 });
  await page.getByTestId('totals.total').waitFor({ timeout: TIMEOUT_MS });
  const before = await page.evaluate(() => (window as unknown as Probe).__foldlab?.imports.length ?? 0);
  await page.setInputFiles('[data-testid="import.input"]', file);
  await page.waitForFunction((n) => ((window as unknown as Probe).__foldlab?.imports.length ?? 0) > n, before, { timeout: TIMEOUT_MS, polling: 100 });
  await page.waitForFunction(() => !(document.querySelector('[data-testid="conversation.title"]')?.textContent ?? 'Demo').startsWith('Demo'), undefined, { timeout: 30_000, polling: 100 });
  // Drop the demo's fold view so the wait below sees the imported session's.
  await page.evaluate(() => {
    const api = (window as unknown as Probe).__foldlab;
    if (api) delete api.fold;
  });
  const foldStart = performance.now();
  await page.getByTestId('tab.fold').click();
  await page.getByTestId('timeline').waitFor({ timeout: TIMEOUT_MS });
  await page.waitForFunction(() => (window as unknown as Probe).__foldlab?.fold !== undefined, undefined, { timeout: TIMEOUT_MS, polling: 50 });
  const foldMs = performance.now() - foldStart;
  await page.waitForTimeout(500);
  const info = await page.evaluate(() => {
    const fold = (window as unknown as Probe).__foldlab?.fold;
    return { iterations: fold?.timeline.iterations ?? -1, total: fold?.totalIterations ?? -1, blocks: fold?.timeline.blocks.length ?? -1 };
  });

  const canvas = page.getByTestId('timeline.canvas');
  await canvas.focus();
  await page.evaluate(() => {
    const w = window as unknown as Probe;
    w.__frames = [];
    w.__tasks = [];
    w.__recording = true;
  });
  const keys = ['+', '+', 'ArrowRight', 'Shift+ArrowRight', '+', 'ArrowRight', '-', 'Shift+ArrowRight', '-', 'ArrowLeft'];
  const driveStart = performance.now();
  for (let k = 0; k < KEY_PRESSES; k++) {
    await page.keyboard.press(keys[k % keys.length]!);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  const driveMs = performance.now() - driveStart;
  await page.waitForTimeout(300);
  const recorded = await page.evaluate(() => {
    const w = window as unknown as Probe;
    w.__recording = false;
    return { frames: w.__frames, tasks: w.__tasks };
  });
  const range = (await page.getByTestId('timeline.range').textContent()) ?? '';

  const intervals = recorded.frames.slice(1).map((t, i) => t - recorded.frames[i]!);
  const sorted = [...intervals].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN;
  const over = intervals.filter((d) => d > FRAME_MS + 0.5).length;
  const longest = recorded.tasks.reduce((m, d) => Math.max(m, d), 0);
  printPairs([
    ['session', `13 MB generated session: ${fmt(info.iterations)} iterations on the timeline (${fmt(info.total)} in the branch), ${fmt(info.blocks)} blocks`],
    ['Fold tab -> fold view', `${duration(foldMs)} (click -> worker's view published)`],
    ['input', `${KEY_PRESSES} key presses on [data-testid="timeline.canvas"] (+/- zoom, ←/→ and Shift pan) in ${duration(driveMs)}; last range "${range}"`],
    ['frames recorded', fmt(recorded.frames.length)],
    ['frame interval median / p95 / max', `${fmt(median(intervals))} / ${fmt(p95)} / ${fmt(sorted.at(-1) ?? Number.NaN)} ms`],
    [`frames > ${fmt(FRAME_MS, 1)} ms`, `${fmt(over)} of ${fmt(intervals.length)}`],
    ['long tasks (> 50 ms)', recorded.tasks.length === 0 ? 'none' : `${recorded.tasks.length}, longest ${fmt(longest)} ms`],
    ['note', `headless Chromium with --disable-gpu (software canvas); the session has ${fmt(info.iterations)} iterations, 100k are drawn on the bench page below`],
  ]);
}

async function browserPart(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const buildStart = performance.now();
  const builder = start(['vite', 'build', '--outDir', SITE_DIR, '--emptyOutDir']);
  const code = await exited(builder);
  if (code !== 0) throw new Error(`vite build failed (exit ${code}):\n${builder.output().trim().split('\n').slice(-15).join('\n')}`);
  const buildMs = performance.now() - buildStart;
  const file = sessionFile();
  releaseSession();
  printPairs([['vite build', `${duration(buildMs)} -> bench/out/fold-site`]]);

  await withServedSite(['vite', 'preview', '--outDir', SITE_DIR, '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], `http://127.0.0.1:${PORT}/`, SITE_DIR, async (browser) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript({ content: PROBES });
    await drive(page, file);
  });
}

export async function foldingSection(): Promise<void> {
  console.log('  -- folding plan (FoldSession, synthetic Read/Edit/Bash run, counts 50-1500 per entry, default options) --');
  planSection();
  console.log();
  console.log('  -- timeline frame plan in Node (planTimeline on syntheticTimeline(100,000)) --');
  geometrySection();
  console.log();
  console.log('  -- timeline drawing in Chromium (Fold tab of the 13 MB session) --');
  await browserPart();
  console.log();
  console.log('  -- timeline drawing at 100k iterations in Chromium (bench/timeline-page: FoldTimeline on syntheticTimeline(100,000)) --');
  await timelineBrowserPart();
}
