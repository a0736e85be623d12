/**
 * Section 2, import throughput: a generated ~100 MB Claude Code JSONL written to a temp file, then
 * streamed through ImportSession in read-stream chunks, with memory sampled while it runs; then each
 * agent format's sample repeated to ~200 MB and imported (import-agents.ts), and each JSON-document
 * format's sample repeated to ~100 MB and imported whole (import-documents.ts).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSessionLines } from '../src/core/demo/generate-session.ts';
import { ImportSession } from '../src/core/import/run.ts';
import { duration, fmt, mb, printPairs, printTable } from './report.ts';
import { agentImportTable, opencodeStoreTable } from './import-agents.ts';
import { documentImportTable } from './import-documents.ts';

/** Size of the generated file. Default 100,000,000. Unit: bytes (approximate). */
export const IMPORT_BYTES = 100_000_000;
/** Import throughput target. Default 20. Unit: MB/s. */
export const IMPORT_TARGET_MB_S = 20;
/** Memory sampling period. Default 100. Unit: ms. */
export const SAMPLE_MS = 100;
/** Lines batched into one write. Default 1,000,000. Unit: characters. */
const WRITE_BATCH = 1_000_000;

/** Streams the generator's lines to `path` without building the whole text. */
async function writeSession(path: string): Promise<number> {
  const out = createWriteStream(path);
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!out.write(batch.join(''))) await once(out, 'drain');
    batch = [];
    size = 0;
  };
  for (const line of generateSessionLines({ targetBytes: IMPORT_BYTES })) {
    batch.push(line, '\n');
    size += line.length + 1;
    if (size >= WRITE_BATCH) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

interface Peaks {
  rss: number;
  heapUsed: number;
  samples: number;
}

/** Samples process.memoryUsage() every SAMPLE_MS until stopped. */
function sampleMemory(): { stop: () => Peaks } {
  const peaks: Peaks = { rss: 0, heapUsed: 0, samples: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peaks.rss = Math.max(peaks.rss, m.rss);
    peaks.heapUsed = Math.max(peaks.heapUsed, m.heapUsed);
    peaks.samples++;
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

export async function importSection(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-bench-'));
  const path = join(dir, 'session-100mb.jsonl');
  try {
    const write = performance.now();
    const bytes = await writeSession(path);
    const writeMs = performance.now() - write;

    // Reading alone, for scale: what the disk and page cache give before any parsing.
    let readOnly = performance.now();
    let chunks = 0;
    for await (const chunk of createReadStream(path)) chunks += (chunk as Buffer).length > 0 ? 1 : 0;
    readOnly = performance.now() - readOnly;

    const base = process.memoryUsage();
    const memory = sampleMemory();
    const start = performance.now();
    const session = new ImportSession({ fileName: 'session-100mb.jsonl', size: bytes });
    // The stream yields while parsing so the sampler's timer gets its turns between chunks.
    for await (const chunk of createReadStream(path)) session.push(chunk as Buffer);
    const result = session.finish();
    const ms = performance.now() - start;
    const peaks = memory.stop();
    const mbS = bytes / 1e6 / (ms / 1000);

    printPairs([
      ['file', `${mb(bytes)}, ${fmt(result.lines)} lines -> ${fmt(result.entries.length)} entries (${result.format}), ${result.issues.length} issues`],
      ['generated and written in', duration(writeMs)],
      ['read chunks', `${fmt(chunks)} (fs.createReadStream default highWaterMark, 64 KiB)`],
    ]);
    console.log();
    printTable(
      ['step', 'time', 'MB/s'],
      [
        ['read only (createReadStream)', duration(readOnly), fmt(bytes / 1e6 / (readOnly / 1000))],
        ['read + ImportSession push/finish', duration(ms), fmt(mbS)],
      ],
    );
    console.log();
    printTable(
      ['memory', 'before', 'peak', 'peak - before'],
      [
        ['RSS', mb(base.rss), mb(peaks.rss), mb(peaks.rss - base.rss)],
        ['heap used', mb(base.heapUsed), mb(peaks.heapUsed), mb(peaks.heapUsed - base.heapUsed)],
      ],
    );
    printPairs([
      ['memory samples', `${fmt(peaks.samples)} (every ${SAMPLE_MS} ms)`],
      ['import throughput', `${fmt(mbS)} MB/s (target >= ${IMPORT_TARGET_MB_S} MB/s: ${mbS >= IMPORT_TARGET_MB_S ? 'met' : 'MISSED'})`],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await agentImportTable();
  documentImportTable();
  await opencodeStoreTable();
}
