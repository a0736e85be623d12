/**
 * Section 9, hostile input: exact counting of long runs without whitespace (ms per MB, ours against
 * gpt-tokenizer's own merge), a generated ~200 MB JSONL streamed through the import and counted in
 * slices (the longest stretch without a yield is how long a Cancel can wait), and a 100 MB single
 * line refused by the line cap with its number while the lines around it import, and `inspect` of a
 * file holding one 30 MB line without whitespace (target < 20 s on 2 cores).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as o200kModule from 'gpt-tokenizer/encoding/o200k_base';
import { runInspect } from '../src/cli/inspect.ts';
import { generateSessionLines } from '../src/core/demo/generate-session.ts';
import { ImportSession } from '../src/core/import/run.ts';
import { MAX_LINE_BYTES } from '../src/core/import/types.ts';
import { getCounter } from '../src/core/tokens/counters.ts';
import { countEntriesSliced } from '../src/core/tokens/sliced-count.ts';
import { collectGarbage, duration, errorText, fmt, mb, printPairs, printTable, timed } from './report.ts';

/** Size of the generated JSONL. Default 200,000,000. Unit: bytes (approximate). */
export const HOSTILE_JSONL_BYTES = 200_000_000;
/** Size of the single line. Default 100 MiB. Unit: bytes. */
export const SINGLE_LINE_BYTES = 100 * 1024 * 1024;
/** Run lengths counted. Unit: characters. */
const RUN_LENGTHS = [100_000, 1_000_000];
/** gpt-tokenizer's own merge is quadratic: it is timed on this length only. Unit: characters. */
const LIBRARY_RUN = 25_000;
/** Counting target: no input over this. Unit: ms per MB. */
const TARGET_MS_PER_MB = 1000;

function runs(length: number): Array<[string, string]> {
  const base64 = Buffer.from(Array.from({ length: Math.ceil((length * 3) / 4) }, (_, i) => (i * 7919 + (i >> 5)) % 256)).toString('base64');
  return [
    ["'a' repeated", 'a'.repeat(length)],
    ["'=' repeated", '='.repeat(length)],
    ['base64 (an inlined image)', base64.slice(0, length)],
    ["'é' repeated (2-byte UTF-8)", 'é'.repeat(length)],
  ];
}

async function countingRuns(): Promise<void> {
  const counter = await getCounter('o200k');
  const plain = { disallowedSpecial: new Set<string>() };
  const rows: Array<Array<string | number>> = [];
  for (const [kind] of runs(10)) {
    const row: Array<string | number> = [kind];
    const short = runs(LIBRARY_RUN).find(([k]) => k === kind)![1];
    const lib = timed(() => o200kModule.countTokens(short, plain));
    const ours25 = timed(() => counter.count(short));
    row.push(duration(lib.ms), duration(ours25.ms), lib.value === ours25.value ? 'yes' : `NO (${lib.value} vs ${ours25.value})`);
    for (const length of RUN_LENGTHS) {
      const text = runs(length).find(([k]) => k === kind)![1];
      const r = timed(() => counter.count(text));
      const msPerMb = r.ms / (Buffer.byteLength(text) / 1e6);
      row.push(`${fmt(msPerMb)}${msPerMb > TARGET_MS_PER_MB ? ' MISSED' : ''}`);
    }
    rows.push(row);
  }
  printTable(['run', `gpt-tokenizer ${fmt(LIBRARY_RUN)}`, `ours ${fmt(LIBRARY_RUN)}`, 'same count', ...RUN_LENGTHS.map((n) => `ours ${fmt(n)}: ms/MB`)], rows);
  printPairs([['target', `<= ${fmt(TARGET_MS_PER_MB)} ms per MB on every run`]]);
}

/** Writes lines to `path` in ~1 MB batches (memory stays flat for a 200 MB file); returns its size in bytes. */
export async function writeLines(path: string, lines: Iterable<string>): Promise<number> {
  const out = createWriteStream(path);
  let batch: string[] = [];
  let size = 0;
  for (const line of lines) {
    batch.push(line, '\n');
    size += line.length + 1;
    if (size >= 1_000_000) {
      if (!out.write(batch.join(''))) await once(out, 'drain');
      batch = [];
      size = 0;
    }
  }
  out.write(batch.join(''));
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

/** Streams a file through an import; returns the result (or error), the time and the longest push. */
async function streamImport(path: string, size: number) {
  const session = new ImportSession({ fileName: path.split('/').pop() ?? path, size });
  let longest = 0;
  let chunks = 0;
  const start = performance.now();
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      const t = performance.now();
      session.push(chunk as Buffer);
      longest = Math.max(longest, performance.now() - t);
      chunks++;
    }
    const result = session.finish();
    return { result, ms: performance.now() - start, longest, chunks };
  } catch (error) {
    return { error, ms: performance.now() - start, longest, chunks };
  }
}

async function bigJsonl(dir: string): Promise<void> {
  const path = join(dir, 'session-200mb.jsonl');
  const bytes = await writeLines(path, generateSessionLines({ targetBytes: HOSTILE_JSONL_BYTES }));
  const read = await streamImport(path, bytes);
  if (!('result' in read) || read.result === undefined) throw new Error(`the 200 MB import failed: ${errorText(read.error)}`);
  const entries = read.result.entries;
  const counter = await getCounter('o200k');
  const slices = countEntriesSliced(entries, counter);
  let longestSlice = 0;
  let sliceCount = 0;
  const start = performance.now();
  for (;;) {
    const t = performance.now();
    const step = slices.next();
    longestSlice = Math.max(longestSlice, performance.now() - t);
    if (step.done) break;
    sliceCount++;
    // The worker yields here; the bench lets timers run too.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const countMs = performance.now() - start;
  printPairs([['file', `${mb(bytes)}, ${fmt(read.result.lines)} lines -> ${fmt(entries.length)} entries, ${read.result.issueCount ?? 0} issues`]]);
  printTable(
    ['phase', 'time', 'MB/s', 'steps', 'longest step (a Cancel waits at most this)'],
    [
      ['reading (1 MiB chunks)', duration(read.ms), fmt(bytes / 1e6 / (read.ms / 1000)), fmt(read.chunks), duration(read.longest)],
      ['counting o200k (slices)', duration(countMs), fmt(bytes / 1e6 / (countMs / 1000)), fmt(sliceCount), duration(longestSlice)],
    ],
  );
}

/** A pi session of a header, one `lineBytes` line (line 2) and two short lines; returns its size and the long line's. */
export async function writeSingleLineFile(path: string, lineBytes = SINGLE_LINE_BYTES): Promise<{ bytes: number; lineBytes: number }> {
  const header = JSON.stringify({ type: 'session', version: 3, id: 'bench', timestamp: '2026-01-01T00:00:00Z', cwd: '/' });
  const message = (id: string, parent: string | null, text: string) =>
    JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: text } });
  const prefix = message('huge', null, '').slice(0, -3);
  const huge = `${prefix}${'A'.repeat(lineBytes - prefix.length - 3)}"}}`;
  const bytes = await writeLines(path, [header, huge, message('m1', null, 'after the long line'), message('m2', 'm1', 'still here')]);
  return { bytes, lineBytes: huge.length };
}

/** Size of the single line `inspect` reads whole (under the line cap). Default 30,000,000. Unit: bytes. */
export const INSPECT_LINE_BYTES = 30_000_000;
/** Target for inspecting it on 2 cores. Default 20,000. Unit: ms. */
const INSPECT_TARGET_MS = 20_000;

/** `inspect` (import + o200k count, as the CLI runs it) of a file whose one message is a 30 MB run of 'A'. */
export async function inspectLongLine(dir: string): Promise<void> {
  const path = join(dir, 'single-line-30mb.jsonl');
  const { bytes, lineBytes } = await writeSingleLineFile(path, INSPECT_LINE_BYTES);
  const start = performance.now();
  const cpu = process.cpuUsage();
  const report = await runInspect(path, 'o200k');
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  printPairs([
    ['file', `${mb(bytes)}: a header, one ${mb(lineBytes)} line (one message of 'A' repeated, no whitespace), two short lines`],
    ['inspect', `${duration(ms)} wall, ${duration(cpuMs)} cpu (${fmt(cpuMs / (lineBytes / 1e6))} cpu ms/MB), ${fmt(report.tokens.total)} tokens, ${report.entries} entries; load ${loadavg()[0]!.toFixed(1)}`],
    ['target', `< ${duration(INSPECT_TARGET_MS)} on 2 cores: ${ms < INSPECT_TARGET_MS ? 'met' : cpuMs < INSPECT_TARGET_MS ? 'missed on wall time only (load)' : 'MISSED'}`],
  ]);
}

async function singleLine(dir: string): Promise<void> {
  const path = join(dir, 'single-line-100mb.jsonl');
  const { bytes, lineBytes } = await writeSingleLineFile(path);
  const rssBefore = process.memoryUsage().rss;
  const run = await streamImport(path, bytes);
  const rssAfter = process.memoryUsage().rss;
  const issue = run.result?.issues.find((i) => i.kind === 'too-long');
  printPairs([
    ['file', `${mb(bytes)}: a header, one ${mb(lineBytes)} line (line 2), two short lines`],
    ['outcome', run.result ? `${run.result.entries.length} entries imported; line ${issue?.line ?? '?'} refused: ${issue?.message ?? 'NOT REFUSED'}` : `failed: ${errorText(run.error)}`],
    ['time', `${duration(run.ms)} (${fmt(bytes / 1e6 / (run.ms / 1000))} MB/s), longest chunk ${duration(run.longest)}`],
    ['RSS after - before', `${mb(rssAfter - rssBefore)} (the line's bytes are dropped as they arrive; cap ${mb(MAX_LINE_BYTES)})`],
  ]);
}

export async function hostileSection(): Promise<void> {
  console.log('  counting long runs without whitespace (exact; same count as gpt-tokenizer)');
  await countingRuns();
  console.log();
  collectGarbage();
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-hostile-'));
  try {
    console.log(`  a ~${mb(HOSTILE_JSONL_BYTES)} JSONL, streamed and counted as the worker does`);
    await bigJsonl(dir);
    collectGarbage();
    console.log();
    console.log('  a 100 MB single line between ordinary lines');
    await singleLine(dir);
    collectGarbage();
    console.log();
    console.log(`  a ${mb(INSPECT_LINE_BYTES)} single line without whitespace, inspected (import and exact o200k count, as \`inspect\` runs)`);
    await inspectLongLine(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
