/**
 * Section 14, saving an import in Chromium: the app's `commitImport` in a worker (bench/save-page)
 * writes a generated Claude Code session into IndexedDB (uniform, or uneven: every 100th entry
 * carrying a 300 KB tool output), once with batches cut by rows only (1,000 rows each, how the app
 * cut them before) and once by rows and estimated size (the app's default), each in a fresh
 * browser: on disk (a new profile folder, as a user's browser) and in memory (an off-the-record
 * context, as an incognito window or Playwright's default context). Prints rows/s, MB/s of the
 * source file and the time between two progress reports (longest and median).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { SaveReply, SaveRequest } from './save-page/worker.ts';
import { chromiumMissing } from './page-probe.ts';
import { CHROMIUM, CHROMIUM_ARGS, exited, start, stop, waitForServer } from './processes.ts';
import { duration, fmt, mb, median, printPairs, printTable } from './report.ts';
import { OUT_DIR } from './session.ts';

/** Port of the page's preview server. Default 4341. */
export const SAVE_PORT = 4341;
/** Generated file saved on disk. Default 50,000,000. Unit: bytes (approximate). */
export const SAVE_DISK_BYTES = 50_000_000;
/** Generated file saved in memory (slower per row as the transaction grows). Default 25,000,000. Unit: bytes (approximate). */
export const SAVE_MEMORY_BYTES = 25_000_000;
/** The uneven file: a long tool output (a slice of the session's text) added to every `every`-th entry. Defaults 100 and 300,000. Unit: entries, characters. */
export const SAVE_HEAVY = { every: 100, chars: 300_000 };
/** The uneven file's generated session before its heavy entries. Default 25,000,000. Unit: bytes (approximate). */
export const SAVE_UNEVEN_BYTES = 25_000_000;
/** Runs per storage and batching, alternated so that load drifts hit both alike. Default 2. */
export const SAVE_ROUNDS = 2;

const CONFIG = 'bench/save-page/vite.config.ts';
const SITE_DIR = resolve(OUT_DIR, 'save-site');
const URL = `http://127.0.0.1:${SAVE_PORT}/`;

/** Batches of 1,000 rows whatever their size, as the app cut them before. */
const ROWS_ONLY = { rows: 1000, size: Number.MAX_SAFE_INTEGER };

type Storage = 'disk' | 'memory';
type Save = (request: SaveRequest) => Promise<SaveReply>;

/** One save in a fresh browser; the profile folder (disk) is removed afterwards. */
async function saveOnce(storage: Storage, prepare: SaveRequest, rowsOnly: boolean): Promise<{ prepared: SaveReply; saved: SaveReply }> {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-save-'));
  let context: BrowserContext | undefined;
  try {
    context = storage === 'disk'
      ? await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS })
      : await (await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })).newContext();
    const page = await context.newPage();
    await page.goto(URL);
    await page.waitForFunction(() => '__save' in window);
    const call = (request: SaveRequest) => page.evaluate((r) => (window as unknown as { __save: Save }).__save(r), request);
    const prepared = await call(prepare);
    const saved = await call(rowsOnly ? { type: 'save', batches: ROWS_ONLY } : { type: 'save' });
    return { prepared, saved };
  } finally {
    const browser = context?.browser();
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function saveSection(): Promise<void> {
  if (chromiumMissing()) return;
  const build = start(['vite', 'build', '--config', CONFIG]);
  if ((await exited(build)) !== 0) throw new Error(`vite build of the save page failed:\n${build.output().trim()}`);
  const server = start(['vite', 'preview', '--config', CONFIG, '--port', String(SAVE_PORT), '--strictPort', '--host', '127.0.0.1']);
  try {
    await waitForServer(URL, server, 30_000);
    const rows: (string | number)[][] = [];
    const runs: Array<[Storage, string, SaveRequest]> = [
      ['disk', 'uniform', { type: 'prepare', bytes: SAVE_DISK_BYTES }],
      ['disk', 'uneven', { type: 'prepare', bytes: SAVE_UNEVEN_BYTES, heavy: SAVE_HEAVY }],
      ['memory', 'uniform', { type: 'prepare', bytes: SAVE_MEMORY_BYTES }],
    ];
    for (const [storage, shape, prepare] of runs) {
      for (let round = 0; round < SAVE_ROUNDS; round++) {
        for (const rowsOnly of round % 2 === 0 ? [true, false] : [false, true]) {
          const load = loadavg()[0]!;
          const { prepared, saved } = await saveOnce(storage, prepare, rowsOnly);
          if (prepared.type !== 'prepared') throw new Error(`prepare failed: ${prepared.type === 'failed' ? prepared.message : prepared.type}`);
          if (saved.type !== 'saved') throw new Error(`save failed: ${saved.type === 'failed' ? saved.message : saved.type}`);
          rows.push([
            storage, `${shape} ${mb(prepared.fileBytes)}, ${fmt(prepared.entries)} entries`, rowsOnly ? '1,000 rows' : 'rows + size (default)',
            duration(saved.ms), fmt(saved.rows / (saved.ms / 1000)), fmt(prepared.fileBytes / 1e6 / (saved.ms / 1000), 1),
            fmt(saved.gaps.length), duration(Math.max(...saved.gaps)), duration(median(saved.gaps)), load.toFixed(1),
          ]);
        }
      }
    }
    printTable(['storage', 'file', 'batches by', 'save', 'rows/s', 'MB/s', 'reports', 'longest gap', 'median gap', 'load'], rows);
    printPairs([
      ['MB/s', 'megabytes of the source file per second of commitImport (one transaction)'],
      ['gap', 'time between two progress reports (the first from the start of the save)'],
    ]);
  } finally {
    stop(server);
    if (process.env.BENCH_KEEP_SITE !== '1') rmSync(SITE_DIR, { recursive: true, force: true });
  }
}
