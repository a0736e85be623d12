/**
 * Import fuzzing over the project's real sample files: random line deletions, byte flips,
 * truncations (of the last line or more), a BOM, CRLF endings, U+2028, blank and duplicated lines. The import never throws
 * anything but its own errors; every line it reports is reported by its right number (checked
 * against an independent reading: strict UTF-8, JSON.parse); every intact line still imports.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isRecord } from './builder.ts';
import { importText } from './run.ts';
import { ImportFormatError, UnreadableFileError, type ImportResult } from './types.ts';

const SAMPLES = [
  'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl',
  'public/samples/claude-code/dag_compact_after_rewind.jsonl',
  'public/samples/codex/schema-coverage.jsonl',
  'public/samples/pi/v3-small.jsonl',
  'public/samples/pi/large-session.jsonl',
  'public/samples/gemini-cli/jsonl_v040.jsonl',
  'public/samples/cursor/large.jsonl',
  'public/samples/cursor/test-session.jsonl',
  'public/samples/cursor/schema_drift.jsonl',
  'public/samples/cursor/agent-transcripts/parent.jsonl',
  'public/samples/cursor/agent-transcripts/parent/subagents/child.jsonl',
  'public/samples/cursor/turn-ended-error-writable-iterable-closed-1.jsonl',
  'public/samples/copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl',
  'public/samples/droid/exec-rc-claude.jsonl',
  'public/samples/droid/exec-permission-denied.jsonl',
  'public/samples/droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl',
  'public/samples/droid/e3a7c1d9-52b8-4f06-8d3e-9b1f4a6c2e70.jsonl',
  'public/samples/droid/5b9d2f4e-8c13-4a7b-b6e0-2d4f6a8c1e93.jsonl',
  'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl',
  'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/context_1.jsonl',
  'public/samples/kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/context.jsonl',
  'public/samples/kimi/531d195b-6436-426e-b010-4bf723a992de.jsonl',
  'public/samples/kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b/agents/main/wire.jsonl',
  'public/samples/kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b/agents/agent-0/wire.jsonl',
].map((path) => ({ path, lines: readFileSync(path, 'utf8').trimEnd().split('\n').slice(0, 40) }));

const enc = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One physical line of the mutated file: the original line it comes from, and whether it is left untouched. */
interface FuzzLine {
  bytes: Uint8Array;
  intact: boolean;
  origin: number;
}

type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'flip'; at: number; pos: number; byte: number }
  | { op: 'blank'; at: number; text: string }
  | { op: 'duplicate'; at: number }
  | { op: 'u2028'; at: number; pos: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), pos: fc.nat(), byte: fc.integer({ min: 1, max: 255 }).filter((b) => b !== 0x0a) }),
  fc.record({ op: fc.constant('blank' as const), at: fc.nat(), text: fc.constantFrom('', ' ', '\t', '  \t ') }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('u2028' as const), at: fc.nat(), pos: fc.nat() }),
);

function mutate(lines: string[], mutations: Mutation[]): FuzzLine[] {
  const out: FuzzLine[] = lines.map((line, origin) => ({ bytes: enc.encode(line), intact: true, origin }));
  for (const m of mutations) {
    if (out.length === 0) break;
    const at = m.at % out.length;
    const line = out[at]!;
    if (m.op === 'delete') out.splice(at, 1);
    else if (m.op === 'blank') out.splice(at, 0, { bytes: enc.encode(m.text), intact: false, origin: -1 });
    else if (m.op === 'duplicate') out.splice(at, 0, { ...line });
    else if (line.bytes.length > 0) {
      const pos = m.pos % line.bytes.length;
      const insert = m.op === 'flip' ? [m.byte] : [...enc.encode('\u2028')];
      const keep = m.op === 'flip' ? 1 : 0;
      out[at] = { bytes: Uint8Array.from([...line.bytes.subarray(0, pos), ...insert, ...line.bytes.subarray(pos + keep)]), intact: false, origin: line.origin };
    }
  }
  return out;
}

/** The file's bytes; `truncate` cuts it at that many bytes from the end of the full text. */
function assemble(lines: FuzzLine[], crlf: boolean, bom: boolean, truncate: number): Uint8Array {
  const eol = crlf ? [0x0d, 0x0a] : [0x0a];
  const size = (bom ? 3 : 0) + lines.reduce((sum, line) => sum + line.bytes.length + eol.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  if (bom) out.set([0xef, 0xbb, 0xbf], (at += 3) - 3);
  for (const line of lines) {
    out.set(line.bytes, at);
    out.set(eol, at + line.bytes.length);
    at += line.bytes.length + eol.length;
  }
  return out.subarray(0, Math.max(0, size - truncate));
}

/** Lines the driver must report (by number), read independently: strict UTF-8, then JSON.parse. */
function expectedReports(bytes: Uint8Array): number[] {
  const reports: number[] = [];
  let start = 0;
  for (let no = 1; start < bytes.length; no++) {
    const nl = bytes.indexOf(0x0a, start);
    let line = bytes.subarray(start, nl === -1 ? bytes.length : nl);
    start = nl === -1 ? bytes.length : nl + 1;
    if (line.at(-1) === 0x0d) line = line.subarray(0, -1);
    if (no === 1 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    let text: string;
    try {
      text = strict.decode(line);
    } catch {
      reports.push(no);
      continue;
    }
    if (text.trim().length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      reports.push(no);
      continue;
    }
    if (!isRecord(value)) reports.push(no);
  }
  return reports;
}

const DRIVER_MESSAGES = /^(not valid JSON|expected a JSON object|not valid UTF-8|the last line is cut off)/;

/** Line numbers (1-based) that made or extended an entry. */
function coveredLines(result: ImportResult): Set<number> {
  const covered = new Set<number>();
  for (const entry of result.entries) {
    if (entry.line === undefined) continue;
    for (let no = entry.line; no <= (entry.lineEnd ?? entry.line); no++) covered.add(no);
  }
  return covered;
}

describe('import fuzzing over the real samples', () => {
  for (const sample of SAMPLES) {
    // Lines that started an entry (a merged Codex response also spans event lines it does not use).
    const originallyCovered = new Set(importText(sample.lines.join('\n')).entries.map((entry) => entry.line));

    it(`never throws, reports the right lines and keeps every intact line: ${sample.path}`, () => {
      fc.assert(
        fc.property(
          fc.array(mutation, { maxLength: 6 }),
          fc.boolean(),
          fc.boolean(),
          fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
          (mutations, crlf, bom, truncate) => {
            const lines = mutate(sample.lines, mutations);
            const bytes = assemble(lines, crlf, bom, truncate);
            let result: ImportResult;
            try {
              result = importText(bytes);
            } catch (error) {
              // Only the import's own, user-facing errors (nothing left to import, no format found).
              expect(error instanceof ImportFormatError || error instanceof UnreadableFileError, String(error)).toBe(true);
              return;
            }
            const reported = result.issues.filter((issue) => DRIVER_MESSAGES.test(issue.message)).map((issue) => issue.line);
            expect(reported).toEqual(expectedReports(bytes));
            expect(result.issueCount).toBe(result.issues.length);
            // Every untouched line that started an entry before is still in one, or a copy of it is (the
            // importers keep the first of two lines with one id). A truncated last line is not untouched.
            const covered = coveredLines(result);
            const coveredOrigins = new Set(lines.filter((_, i) => covered.has(i + 1)).map((line) => line.origin));
            let whole = 0;
            for (let end = bom ? 3 : 0; whole < lines.length; whole++) {
              end += lines[whole]!.bytes.length + (crlf ? 2 : 1);
              if (end > bytes.length) break;
            }
            for (const [i, line] of lines.entries()) {
              if (!line.intact || i >= whole || !originallyCovered.has(line.origin + 1)) continue;
              expect(covered.has(i + 1) || coveredOrigins.has(line.origin), `line ${i + 1} (line ${line.origin + 1} of ${sample.path})`).toBe(true);
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
