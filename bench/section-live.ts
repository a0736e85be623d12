/**
 * Section 11, a live session in the browser: the production build in Chromium runs the scripted
 * demo session (public/samples/live/demo-script.json over e2e/fixtures/live-folder, as the e2e
 * does: a mention, an overflow answered by a compaction, a compaction the model asks for) and then
 * a longer generated session of 30 turns, and records the page's main-thread long tasks (> 50 ms)
 * during each turn. A turn's work on the page should not grow with the journal: the long session's
 * last turns are compared with its first. Skipped when no Chromium is found.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildSite, chromiumMissing, drainLongTasks, installLongTaskProbe, type LongTask, withProbedPage } from './page-probe.ts';
import { duration, fmt, printPairs, printTable } from './report.ts';
import { OUT_DIR } from './session.ts';

/** Port of the preview server. Default 4331. */
export const PORT = 4331;
/** The long-task threshold: a task over this blocks input noticeably. Default 50. Unit: ms. */
export const BLOCKED_MS = 50;
/** Quiet time recorded after the first-visit demo is shown, before the live session starts. Default 2,000. Unit: ms. */
export const SETTLE_MS = 2_000;
/** Time allowed for one turn (or the first visit). Default 60,000. Unit: ms. */
export const TURN_TIMEOUT_MS = 60_000;
/** Turns of the generated long session. Default 30. */
export const LONG_TURNS = 30;
/** Turns per row of the long session's table. Default 10. */
export const LONG_GROUP = 10;

const ROOT = resolve(import.meta.dirname, '..');
const SITE_DIR = resolve(OUT_DIR, 'live-site');
const FOLDER = resolve(ROOT, 'e2e/fixtures/live-folder');

/** One turn of a scripted session: what to type and a text the chat shows once it is answered. */
interface Turn {
  text: string;
  expect: string;
}

const DEMO_TURNS: readonly Turn[] = [
  { text: 'What is in this folder?', expect: 'tiny-parser' },
  { text: 'Explain @src/parser.py', expect: 'parse_number' },
  { text: 'Find every TODO', expect: 'src/utils/format.py:6' },
  { text: 'Summarize what we did', expect: 'So far: we listed the folder' },
];

const tag = (turn: number) => `[t${String(turn).padStart(3, '0')}]`;

/** A script of `turns` turns, each listing the folder, reading a file and answering in ~400 characters. */
function longScript(turns: number): { model: string; steps: unknown[] } {
  const steps: unknown[] = [];
  const files = ['README.md', 'src/parser.py', 'src/utils/format.py', 'notes/todo.txt', 'CODE_LAW.md'];
  for (let t = 1; t <= turns; t++) {
    const match = tag(t);
    steps.push({ match, delayMs: 2, text: `Turn ${t}: listing the folder.`, toolCalls: [{ name: 'ls', input: { path: '.' } }] });
    steps.push({ match, delayMs: 2, toolCalls: [{ name: 'read', input: { path: files[t % files.length] } }] });
    steps.push({ match, delayMs: 2, text: `Answer ${t} ${match}: ${'the parser reads key = value lines into records, the formatter prints them sorted by key. '.repeat(5)}` });
  }
  return { model: 'scripted-bench', steps };
}

function longTurns(turns: number): Turn[] {
  return Array.from({ length: turns }, (_, i) => ({ text: `Question ${tag(i + 1)}: what next?`, expect: `Answer ${i + 1} ${tag(i + 1)}` }));
}

/** Opens the setup dialog and starts a session over the folder fixture, with the demo or a given script. */
async function startSession(page: Page, setup: { script?: object; strategy: string; keepRecentTokens?: string; window?: string }): Promise<void> {
  await page.getByTestId('live.new').click();
  await page.getByTestId('live.setup').waitFor();
  await page.getByTestId('live.setup.folder-input').setInputFiles(FOLDER);
  await page.getByTestId('live.setup.folder-picked').waitFor();
  if (setup.script) {
    await page.getByTestId('live.setup.model.script').check();
    await page.getByTestId('live.setup.script-input').setInputFiles({ name: 'bench-script.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(setup.script)) });
  } else {
    await page.getByTestId('live.setup.model.demo').check();
  }
  await page.getByTestId('live.setup.strategy').selectOption(setup.strategy);
  if (setup.window) await page.getByTestId('live.setup.window').fill(setup.window);
  if (setup.keepRecentTokens) {
    await page.getByTestId('live.setup.options').locator('summary').click();
    await page.getByTestId('compact.option.keepRecentTokens').fill(setup.keepRecentTokens);
  }
  await page.getByTestId('live.setup.start').click();
  await page.getByTestId('live.setup').waitFor({ state: 'detached', timeout: TURN_TIMEOUT_MS }).catch(async (error: unknown) => {
    throw new Error(`the live session did not start: ${(await page.getByTestId('live.setup.error').allTextContents()).join(' ') || 'no error shown'}`, { cause: error });
  });
  await page.getByTestId('live.panel').waitFor({ timeout: TURN_TIMEOUT_MS });
}

interface CpuTask {
  /** Wall time of the task, µs. */
  dur: number;
  /** Time the main thread ran on a CPU during it, µs. */
  tdur: number;
}

interface TurnFigures {
  ms: number;
  entries: number;
  /** Long tasks the page's PerformanceObserver saw. */
  tasks: LongTask[];
  /** Every task of the page's main thread, from a Chromium trace. */
  cpu: CpuTask[];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The renderer main thread's top-level tasks from a trace (category `toplevel`): with their thread time, a
 * figure the machine's load inflates far less than wall time, which is what long tasks measure.
 */
function mainThreadTasks(trace: Buffer): CpuTask[] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, CpuTask[]>();
  const ends = new Map<string, number>();
  const tasks = events.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts);
  for (const e of tasks) {
    const thread = `${e.pid}:${e.tid}`;
    // A task run inside another (a nested run loop) is part of it.
    if (e.ts < (ends.get(thread) ?? 0)) continue;
    ends.set(thread, e.ts + (e.dur ?? 0));
    const list = byThread.get(thread) ?? [];
    list.push({ dur: e.dur ?? 0, tdur: e.tdur ?? 0 });
    byThread.set(thread, list);
  }
  // The page's renderer is the busiest one.
  const cpu = (tasks: CpuTask[]) => tasks.reduce((sum, t) => sum + t.tdur, 0);
  return [...byThread.values()].sort((a, b) => cpu(b) - cpu(a))[0] ?? [];
}

/** Sends one request and waits for its answer and for the session to be ready again. */
async function runTurn(page: Page, browser: Browser, turn: Turn): Promise<TurnFigures> {
  await drainLongTasks(page);
  await browser.startTracing(page, { categories: ['toplevel'] });
  const started = performance.now();
  const input = page.getByTestId('live.input');
  await input.fill(turn.text);
  await input.press('Enter');
  // One cheap check every 100 ms (the newest reply and the phase), so the measuring adds little to the page's main thread.
  await page.waitForFunction((expected) => {
    const replies = document.querySelectorAll('[data-testid="live.chat"] [data-testid="live.entry.assistant"]');
    const newest = replies[replies.length - 1];
    return (newest?.textContent ?? '').includes(expected) && document.querySelector('[data-testid="live.phase"]')?.textContent === 'ready';
  }, turn.expect, { timeout: TURN_TIMEOUT_MS, polling: 100 }).catch(async (error: unknown) => {
    const shown = await page.getByTestId('live.error').allTextContents();
    throw new Error(`turn "${turn.text}" was not answered${shown.length > 0 ? `: the session says ${shown.join(' ')}` : ''}`, { cause: error });
  });
  const ms = performance.now() - started;
  // The stored journal and the views after it settle within a few frames.
  await page.waitForTimeout(300);
  const entries = Number((await page.getByTestId('conversation.entries').textContent())?.replace(/[^0-9]/g, ''));
  const tasks = await drainLongTasks(page);
  return { ms, entries, tasks, cpu: mainThreadTasks(await browser.stopTracing()) };
}

function over(tasks: readonly LongTask[]): LongTask[] {
  return tasks.filter((t) => t.duration > BLOCKED_MS);
}

function longest(tasks: readonly LongTask[]): string {
  const max = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  return max === 0 ? '-' : `${fmt(max)} ms`;
}

function row(label: string, figures: readonly TurnFigures[]): Array<string | number> {
  const tasks = figures.flatMap((f) => f.tasks);
  const cpu = figures.flatMap((f) => f.cpu);
  const cpuMs = cpu.reduce((sum, t) => sum + t.tdur, 0) / 1000;
  const longestCpu = cpu.reduce((max, t) => Math.max(max, t.tdur), 0) / 1000;
  return [
    label, figures.at(-1)?.entries ?? 0, duration(figures.reduce((s, f) => s + f.ms, 0)), over(tasks).length, longest(tasks),
    `${fmt(cpuMs / figures.length)} ms`, cpu.filter((t) => t.tdur > BLOCKED_MS * 1000).length, `${fmt(longestCpu)} ms`,
  ];
}

const HEADERS = ['turns', 'entries after', 'wall time', `tasks > ${BLOCKED_MS} ms`, 'longest', 'main-thread CPU per turn', `tasks > ${BLOCKED_MS} ms CPU`, 'longest CPU'];

async function measure(page: Page, browser: Browser): Promise<void> {
  await page.goto(`http://127.0.0.1:${PORT}/`);
  await page.getByTestId('totals.total').waitFor({ timeout: TURN_TIMEOUT_MS });
  await page.waitForTimeout(SETTLE_MS);
  await drainLongTasks(page);

  // The demo session as the e2e runs it: pi keeping the newest 400 tokens, so it compacts.
  await startSession(page, { strategy: 'pi', keepRecentTokens: '400' });
  const setup = await drainLongTasks(page);
  const demo: TurnFigures[] = [];
  for (const turn of DEMO_TURNS) demo.push(await runTurn(page, browser, turn));

  // A longer session with no compaction: each turn appends 6 entries to a growing journal.
  await startSession(page, { script: longScript(LONG_TURNS), strategy: 'pi', window: '1000000' });
  const long: TurnFigures[] = [];
  for (const turn of longTurns(LONG_TURNS)) long.push(await runTurn(page, browser, turn));

  printPairs([
    ['demo session', `public/samples/live/demo-script.json over e2e/fixtures/live-folder, pi keeping 400 tokens (one overflow compaction, one summarize_context)`],
    ['long session', `${LONG_TURNS} generated turns (ls, read, a ~450-character answer each), no compaction`],
    ['setup of the demo session', `${over(setup).length} tasks > ${BLOCKED_MS} ms, longest ${longest(setup)}`],
  ]);
  console.log();
  printTable(HEADERS, [
    ...demo.map((f, i) => row(`demo turn ${i + 1}`, [f])),
    row('demo, all 4 turns', demo),
    ...Array.from({ length: Math.ceil(long.length / LONG_GROUP) }, (_, g) => row(`long turns ${g * LONG_GROUP + 1}-${Math.min(long.length, (g + 1) * LONG_GROUP)}`, long.slice(g * LONG_GROUP, (g + 1) * LONG_GROUP))),
  ]);
  const worst = [...demo, ...long].flatMap((f) => f.tasks).sort((a, b) => b.duration - a.duration).slice(0, 5);
  printPairs([
    ['longest tasks', worst.length === 0 ? 'none' : worst.map((t) => `${fmt(t.duration)} ms`).join(', ')],
    ['CPU columns', 'thread time of the page\'s main thread (Chromium trace): long tasks under load are mostly waiting for a CPU'],
  ]);
}

export async function liveSection(): Promise<void> {
  if (chromiumMissing()) return;
  mkdirSync(OUT_DIR, { recursive: true });
  const buildMs = await buildSite(SITE_DIR);
  printPairs([['vite build', `${duration(buildMs)} -> bench/out/live-site`]]);
  await withProbedPage(SITE_DIR, PORT, installLongTaskProbe, (browser, page) => measure(page, browser));
}
