/**
 * Main-thread tasks of a page from a Chromium trace, with each task's wall time and its thread
 * CPU time. The long-task API reports wall time only, which on a loaded machine (several
 * processes sharing two cores) includes the time the thread waited for a core; the CPU time says
 * how much work the page itself did, so the two together tell a slow page from a busy machine.
 */
import type { Browser, Page } from 'playwright-core';
import { fmt } from './report.ts';

export interface TracedTask {
  /** Start, on the trace's clock. Unit: ms. */
  at: number;
  /** Wall time of the task. Unit: ms. */
  wall: number;
  /** Thread CPU time of the task. Unit: ms. */
  cpu: number;
  /** What took most of the task's CPU ("v8.evaluateModule", "FunctionCall app-abc.js", "Layout"), when the trace says. */
  what?: string;
}

/** Trace events that say what a task was doing (categories devtools.timeline and v8). */
const WORK_EVENTS = new Set(['v8.evaluateModule', 'v8.compileModule', 'EvaluateScript', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC']);

export interface MainThreadTrace {
  /** The renderer main thread's tasks over the wall-time floor. */
  tasks: TracedTask[];
  /** `performance.mark()` calls of the page by name, on the trace's clock (ms). */
  marks: Map<string, number[]>;
}

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string } };
}

/** Runs `fn` while Chromium traces `page`, and returns the renderer main thread's tasks over `minMs` wall time. */
export async function traceMainThread(browser: Browser, page: Page, fn: () => Promise<void>, minMs = 50): Promise<MainThreadTrace> {
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'] });
  try {
    await fn();
  } catch (error) {
    await browser.stopTracing().catch(() => undefined);
    throw error;
  }
  return mainThreadTasks((await browser.stopTracing()).toString('utf8'), minMs);
}

/** The tasks (`RunTask`) of every renderer main thread (`CrRendererMain`) in a trace, over `minMs` wall time, and the page's marks. */
export function mainThreadTasks(traceJson: string, minMs: number): MainThreadTrace {
  const parsed = JSON.parse(traceJson) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
  const main = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  const tasks: TracedTask[] = [];
  const work: TraceEvent[] = [];
  const marks = new Map<string, number[]>();
  for (const e of events) {
    if (e.cat === 'blink.user_timing' && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n')) marks.set(e.name, [...(marks.get(e.name) ?? []), e.ts / 1000]);
    if (e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    if (WORK_EVENTS.has(e.name)) work.push(e);
    if (e.name !== 'RunTask') continue;
    const wall = (e.dur ?? 0) / 1000;
    if (wall > minMs) tasks.push({ at: e.ts / 1000, wall, cpu: (e.tdur ?? e.dur ?? 0) / 1000 });
  }
  labelTasks(tasks, work);
  return { tasks, marks };
}

/** Names each task after the work event inside it with the most CPU time (a script's file name with it). */
function labelTasks(tasks: TracedTask[], work: readonly TraceEvent[]): void {
  const sorted = [...tasks].sort((a, b) => a.at - b.at);
  const heaviest = new Map<TracedTask, number>();
  for (const e of work) {
    const at = e.ts / 1000;
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sorted[mid]!.at <= at) lo = mid;
      else hi = mid - 1;
    }
    const task = sorted[lo];
    if (!task || task.at > at || at + (e.dur ?? 0) / 1000 > task.at + task.wall) continue;
    const cpu = e.tdur ?? e.dur ?? 0;
    if (cpu <= (heaviest.get(task) ?? -1)) continue;
    heaviest.set(task, cpu);
    const url = e.args?.data?.url;
    task.what = url ? `${e.name} ${url.split('/').pop()}` : e.name;
  }
}

/** The three traced tasks with the most CPU time, each with what it ran and when (ms after the window's first traced task). */
export function cpuHeaviest(traced: readonly TracedTask[]): string {
  const first = Math.min(...traced.map((t) => t.at));
  const top = [...traced].sort((a, b) => b.cpu - a.cpu).slice(0, 3);
  if (top.length === 0) return 'no task over the floor';
  return top.map((t) => `${fmt(t.cpu)} ms CPU / ${fmt(t.wall)} ms wall (${t.what ?? 'unlabelled'}, at +${fmt(t.at - first)} ms)`).join('; ');
}
