/**
 * Section 6, browser part at 100k iterations: builds the timeline benchmark page
 * (bench/timeline-page: the real FoldTimeline and PartitionBar on `syntheticTimeline(100,000)`),
 * serves it on port 4321 and pans / zooms it in Chromium with the keyboard, mouse drags and the
 * wheel at three zoom levels, printing frame intervals, long tasks and the page-measured plan and
 * canvas draw times per frame. The server is always stopped and the build removed (unless
 * BENCH_KEEP_SITE=1).
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { WHEEL_ZOOM } from '../src/ui/timeline/useTimelineView.ts';
import type { BenchRecord } from './timeline-page/main.tsx';
import { exited, start, withServedSite } from './processes.ts';
import { duration, fmt, median, printPairs, printTable } from './report.ts';
import { OUT_DIR } from './session.ts';

/** Iterations on the page's synthetic timeline. Default 100,000. */
export const TIMELINE_ITERATIONS = 100_000;
/** Port of the page's preview server (4317 and 4319 are the other browser sections'). Default 4321. */
export const TIMELINE_PORT = 4321;
/** Inputs (key presses, wheel events) per phase; a drag is twice this many mouse moves. Default 48. */
export const INPUTS_PER_PHASE = 48;
/** The target: every frame within one 60 Hz interval. Unit: ms. */
const FRAME_MS = 1000 / 60;
/** rAF timestamps jitter by a fraction of a millisecond; a dropped frame adds a whole interval. Unit: ms. */
const FRAME_SLACK_MS = 0.5;

const CONFIG = 'bench/timeline-page/vite.config.ts';
const SITE_DIR = resolve(OUT_DIR, 'timeline-site');
const URL = `http://127.0.0.1:${TIMELINE_PORT}/?n=${TIMELINE_ITERATIONS}`;
const ZOOMS = [1, 8, 400] as const;
/** Keys of one keyboard cycle; it ends where it started so the view never sticks at an end. */
const PAN_KEYS = [...Array<string>(6).fill('ArrowRight'), 'Shift+ArrowRight', ...Array<string>(6).fill('ArrowLeft'), 'Shift+ArrowLeft'];
/** At the fit zoom the view cannot pan: zoom in six steps (×11) and back out, as a held key would. */
const ZOOM_KEYS = [...Array<string>(6).fill('+'), ...Array<string>(6).fill('-')];

type Bench = { __bench: BenchRecord };
interface Box {
  x: number;
  y: number;
  width: number;
}
interface PhaseResult {
  row: (string | number)[];
  intervals: number[];
  tasks: number[];
  draws: number[];
}

const nextFrame = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
const pxPerIteration = (page: Page) => page.evaluate(() => Number(document.querySelector<HTMLElement>('[data-testid="timeline"]')?.dataset.pxPerIteration ?? Number.NaN));

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

/** "median / p95 / max" of the values, in ms. */
function spread(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(median(sorted))} / ${fmt(quantile(sorted, 0.95))} / ${fmt(sorted.at(-1)!)}`;
}

/** Fits the whole run, then zooms by `factor` with one wheel event at the middle of the band. */
async function setZoom(page: Page, box: Box, factor: number): Promise<number> {
  await page.getByTestId('timeline.reset').click();
  await nextFrame(page);
  const fit = await pxPerIteration(page);
  await page.mouse.move(box.x + box.width / 2, box.y);
  if (factor !== 1) {
    await page.mouse.wheel(0, -Math.log(factor) / WHEEL_ZOOM);
    await page.waitForFunction((px) => Number(document.querySelector<HTMLElement>('[data-testid="timeline"]')?.dataset.pxPerIteration) !== px, fit);
  }
  await nextFrame(page);
  await page.getByTestId('timeline.canvas').focus();
  return (await pxPerIteration(page)) / fit;
}

/** Sends one phase's input: at the fit zoom the view cannot pan, so keys and wheel zoom in and out. */
async function sendInput(page: Page, box: Box, input: string, fit: boolean): Promise<number> {
  const mid = box.x + box.width / 2;
  if (input === 'keyboard') {
    for (let k = 0; k < INPUTS_PER_PHASE; k++) {
      await page.keyboard.press(fit ? ZOOM_KEYS[k % ZOOM_KEYS.length]! : PAN_KEYS[k % PAN_KEYS.length]!);
      await nextFrame(page);
    }
    return INPUTS_PER_PHASE;
  }
  if (input === 'drag') {
    const reach = Math.min(400, box.width / 3);
    const steps = INPUTS_PER_PHASE / 2;
    await page.mouse.move(mid, box.y);
    await page.mouse.down();
    await page.mouse.move(mid - reach, box.y, { steps });
    await page.mouse.move(mid + reach, box.y, { steps: steps * 2 });
    await page.mouse.move(mid, box.y, { steps });
    await page.mouse.up();
    return steps * 4;
  }
  await page.mouse.move(mid, box.y);
  for (let k = 0; k < INPUTS_PER_PHASE; k++) {
    const sign = k < INPUTS_PER_PHASE / 2 ? 1 : -1;
    await (fit ? page.mouse.wheel(0, -120 * sign) : page.mouse.wheel(80 * sign, 0));
    await nextFrame(page);
  }
  return INPUTS_PER_PHASE;
}

async function phase(page: Page, box: Box, zoom: number, input: string): Promise<PhaseResult> {
  const achieved = await setZoom(page, box, zoom);
  await page.waitForTimeout(150);
  await page.evaluate(() => {
    const bench = (window as unknown as Bench).__bench;
    Object.assign(bench, { frames: [], tasks: [], plans: [], draws: [], recording: true });
  });
  const started = performance.now();
  const inputs = await sendInput(page, box, input, zoom === 1);
  await nextFrame(page);
  await nextFrame(page);
  const ms = performance.now() - started;
  const record = await page.evaluate(() => {
    const bench = (window as unknown as Bench).__bench;
    bench.recording = false;
    return { frames: bench.frames, tasks: bench.tasks, plans: bench.plans, draws: bench.draws };
  });
  const intervals = record.frames.slice(1).map((t, i) => t - record.frames[i]!);
  const over = intervals.filter((d) => d > FRAME_MS + FRAME_SLACK_MS).length;
  const longest = record.tasks.reduce((m, d) => Math.max(m, d), 0);
  const label = zoom === 1 ? 'fit (whole run)' : `×${fmt(zoom)} (got ×${fmt(achieved)})`;
  return {
    row: [
      label, input, `${fmt(inputs)} in ${duration(ms)}`, fmt(record.frames.length), spread(intervals), `${fmt(over)}`,
      record.tasks.length === 0 ? 'none' : `${fmt(longest)} ms`, fmt(record.draws.length), spread(record.draws), spread(record.plans),
    ],
    intervals,
    tasks: record.tasks,
    draws: record.draws,
  };
}

async function drive(page: Page): Promise<void> {
  await page.goto(URL);
  await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid="timeline"]')?.dataset.cells !== undefined, undefined, { timeout: 60_000 });
  const info = await page.evaluate(() => {
    const { iterations, blocks, buildMs } = (window as unknown as Bench).__bench;
    return { iterations, blocks, buildMs };
  });
  const canvasBox = await page.getByTestId('timeline.canvas').boundingBox();
  if (!canvasBox) throw new Error('The timeline canvas has no bounding box: the benchmark page did not lay out.');
  // Inputs go to the level band (not a block's button), 14 + 13 px below the canvas top.
  const box: Box = { x: canvasBox.x, y: canvasBox.y + 27, width: canvasBox.width };
  const results: PhaseResult[] = [];
  for (const zoom of ZOOMS) {
    for (const input of ['keyboard', 'drag', 'wheel']) results.push(await phase(page, box, zoom, input));
  }
  const intervals = results.flatMap((r) => r.intervals);
  const draws = results.flatMap((r) => r.draws);
  const tasks = results.flatMap((r) => r.tasks);
  const over = intervals.filter((d) => d > FRAME_MS + FRAME_SLACK_MS);
  const worst = intervals.reduce((m, d) => Math.max(m, d), 0);
  printPairs([
    ['page', `FoldTimeline + PartitionBar on syntheticTimeline(${fmt(info.iterations)}): ${fmt(info.blocks)} blocks, data built in ${duration(info.buildMs)}; canvas ${fmt(canvasBox.width)} CSS px, dpr 1`],
  ]);
  printTable(['zoom', 'input', 'inputs', 'frames', 'interval med / p95 / max ms', '> 16.7 ms', 'longest task', 'draws', 'draw med / p95 / max ms', 'plan med / p95 / max ms'], results.map((r) => r.row));
  const busy = loadavg()[0]! > cpus().length ? ' (load average above the CPU count: some dropped frames may be the machine\'s)' : '';
  const verdict = over.length === 0
    ? `met: no frame interval over ${fmt(FRAME_MS, 1)} ms in ${fmt(intervals.length)} (longest ${fmt(worst)} ms)`
    : `NOT MET: ${fmt(over.length)} of ${fmt(intervals.length)} frame intervals over ${fmt(FRAME_MS, 1)} ms (longest ${fmt(worst)} ms); draw max ${fmt(Math.max(0, ...draws))} ms${busy}`;
  printPairs([
    ['long tasks (> 50 ms)', tasks.length === 0 ? 'none' : `${fmt(tasks.length)}, longest ${fmt(Math.max(...tasks))} ms`],
    ['60 fps while panning at 100k', verdict],
    ['load average', `${loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min, after the run)`],
    ['note', 'headless Chromium, --disable-gpu (software raster); draw = the canvas commands in the frame callback, plan = planTimeline in render (rasterization is off the main thread); a drag at the fit zoom cannot move the view, so it draws nothing'],
  ]);
}

/** Builds, serves and drives the timeline page; always stops the server and removes the build. */
export async function timelineBrowserPart(): Promise<void> {
  const buildStart = performance.now();
  const builder = start(['vite', 'build', '--config', CONFIG]);
  const code = await exited(builder);
  if (code !== 0) throw new Error(`vite build of the timeline page failed (exit ${code}):\n${builder.output().trim().split('\n').slice(-15).join('\n')}`);
  printPairs([['vite build', `${duration(performance.now() - buildStart)} -> bench/out/timeline-site`]]);

  await withServedSite(['vite', 'preview', '--config', CONFIG, '--port', String(TIMELINE_PORT), '--strictPort', '--host', '127.0.0.1'], `http://127.0.0.1:${TIMELINE_PORT}/`, SITE_DIR, async (browser) => {
    await drive(await browser.newPage({ viewport: { width: 1400, height: 900 } }));
  });
}
