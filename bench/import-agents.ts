/**
 * Import throughput per agent format (part of section 2): each JSONL sample repeated with fresh ids
 * into a ~200 MB file, then streamed through ImportSession in 1 MiB chunks as the CLI reads it. The
 * longest single push is the longest the worker is busy between two progress messages, so it is the
 * figure that says whether the page stays responsive.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportSession } from '../src/core/import/run.ts';
import { duration, fmt, mb, printTable } from './report.ts';

/** Size of each generated file. Default 200,000,000 (`BENCH_AGENT_BYTES` overrides). Unit: bytes (approximate). */
export const AGENT_IMPORT_BYTES = Number(process.env.BENCH_AGENT_BYTES ?? 200_000_000);

/** The JSONL samples measured, one per line-based agent importer. */
export const AGENT_SAMPLES: ReadonlyArray<{ format: string; path: string }> = [
  { format: 'copilot-cli', path: 'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl' },
  { format: 'droid (stream-json)', path: 'public/samples/droid/exec-rc-claude.jsonl' },
  { format: 'droid (session store)', path: 'public/samples/droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl' },
  { format: 'kimi (wire)', path: 'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl' },
  { format: 'cursor (agent transcript)', path: 'public/samples/cursor/large.jsonl' },
];

/** Keys whose values are ids: suffixed per copy so every copy's entries and calls stay distinct. */
const ID_KEYS = new Set(['id', 'parentId', 'uuid', 'parentUuid', 'toolCallId', 'tool_call_id', 'tool_use_id', 'call_id', 'messageId', 'apiCallId', 'parentToolCallId', 'parent_tool_call_id', 'agent_id']);

function withSuffix(value: unknown, suffix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withSuffix(item, suffix));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, ID_KEYS.has(key) && typeof inner === 'string' ? `${inner}~${suffix}` : withSuffix(inner, suffix)]));
}

/** Writes copies of the sample's lines (copy 0 as it is) until the file reaches `bytes`. */
async function writeRepeated(sample: string, path: string, bytes: number): Promise<number> {
  const lines = readFileSync(sample, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown);
  const out = createWriteStream(path);
  let written = 0;
  for (let copy = 0; written < bytes; copy++) {
    const text = `${lines.map((line) => JSON.stringify(copy === 0 ? line : withSuffix(line, String(copy)))).join('\n')}\n`;
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(path).size;
}

export async function agentImportTable(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-bench-agents-'));
  const rows: string[][] = [];
  try {
    for (const sample of AGENT_SAMPLES) {
      const path = join(dir, `${sample.format}.jsonl`);
      const bytes = await writeRepeated(sample.path, path, AGENT_IMPORT_BYTES);
      const session = new ImportSession({ fileName: `${sample.format}.jsonl`, size: bytes });
      let longest = 0;
      const start = performance.now();
      for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
        const pushed = performance.now();
        session.push(chunk as Buffer);
        longest = Math.max(longest, performance.now() - pushed);
      }
      const finishing = performance.now();
      const result = session.finish();
      const end = performance.now();
      rows.push([
        sample.format, result.format, mb(bytes), fmt(result.entries.length), fmt(result.issueCount ?? 0),
        duration(end - start), fmt(bytes / 1e6 / ((end - start) / 1000)), duration(longest), duration(end - finishing),
      ]);
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log();
  printTable(['sample', 'read as', 'file', 'entries', 'issues', 'import', 'MB/s', 'longest push', 'finish'], rows);
}
