/**
 * Reading a file's lines for the model, shared by the `read` tool and `@file` mentions: binary
 * files are named, not dumped; text comes with line numbers (`cat -n` style), at most
 * `readMaxLines` lines and `outputMaxChars` characters from `offset`, long lines cut, and the
 * output says what was left out and how to continue. The file is scanned in chunks up to
 * `readScanMaxBytes`, so a huge file costs no more than that. L9's note is added here.
 */
import { modifiedNote } from '../mtime.ts';
import { BINARY_SNIFF_BYTES, clipLine, count } from './limits.ts';
import { sniffBinary } from './binary.ts';
import { throwIfStopped, type ToolEnv } from './common.ts';
import { FolderPathError, shownPath, type ResolvedPath } from './paths.ts';

/** Bytes read from the folder at a time. */
const CHUNK_BYTES = 256 * 1024;

export interface ReadRequest {
  /** First line, 1-based. Default 1. */
  offset?: number;
  /** Lines wanted; never more than `readMaxLines`. */
  limit?: number;
}

export interface ReadText {
  text: string;
  binary: boolean;
  /** Lines shown, 1-based inclusive; undefined when none. */
  shown?: { first: number; last: number };
  /** Lines in the file (undefined when the scan cap was reached first). */
  totalLines?: number;
}

function countNewlines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

function modified(mtimeMs: number): string {
  return mtimeMs > 0 ? `; modified ${new Date(mtimeMs).toISOString()}` : '';
}

/** The text the model gets for `target` (a file already confined by resolveToolPath). */
export async function readText(env: ToolEnv, target: ResolvedPath, request: ReadRequest, signal: AbortSignal): Promise<ReadText> {
  const { folder, limits } = env;
  const shown = shownPath(target.path);
  if (target.stat.kind === 'directory') throw new FolderPathError(target.path, `"${shown}" is a directory; use ls to list it.`);
  const size = target.stat.size;
  const sample = await folder.read(target.real, { length: BINARY_SNIFF_BYTES });
  const sniff = sniffBinary(sample, target.real, sample.length < BINARY_SNIFF_BYTES || sample.length >= size);
  const changed = env.mtimes.record(target.path, target.stat.mtimeMs);
  const note = changed ? `${modifiedNote(target.path)}\n` : '';
  if (sniff.binary) {
    return {
      binary: true,
      text: `${note}${shown}: binary file (${sniff.type}), ${count(size)} bytes${modified(target.stat.mtimeMs)}; ${sniff.reason} in its first bytes, so its contents are not shown.`,
    };
  }

  const offset = request.offset ?? 1;
  const want = Math.min(request.limit ?? limits.readMaxLines, limits.readMaxLines);
  const end = Math.min(size, limits.readScanMaxBytes);
  let decoder = new TextDecoder('utf-8');
  const lines: string[] = [];
  let chars = 0;
  let charCut = false;
  let collecting = true;
  let lineNo = 0;
  let pending = '';
  let newlines = 0;
  let lastByte = -1;
  let pos = 0;
  const take = (raw: string) => {
    lineNo++;
    if (!collecting || lineNo < offset) return;
    const formatted = `${String(lineNo).padStart(6)}\t${clipLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, limits.lineMaxChars)}`;
    if (lines.length > 0 && chars + formatted.length + 1 > limits.outputMaxChars) {
      charCut = true;
      collecting = false;
      return;
    }
    lines.push(formatted);
    chars += formatted.length + 1;
    if (lines.length >= want) collecting = false;
  };
  while (pos < end) {
    throwIfStopped(signal);
    const bytes = await folder.read(target.real, { offset: pos, length: Math.min(CHUNK_BYTES, end - pos) });
    if (bytes.length === 0) break;
    pos += bytes.length;
    const before = newlines;
    newlines += countNewlines(bytes);
    lastByte = bytes[bytes.length - 1]!;
    if (!collecting) continue;
    const chunkLines = newlines - before;
    if (lineNo + chunkLines < offset - 1) {
      // The whole chunk, and the line it ends in, lie before `offset`: count, do not decode.
      lineNo += chunkLines;
      pending = '';
      decoder = new TextDecoder('utf-8');
      continue;
    }
    const parts = (pending + decoder.decode(bytes, { stream: true })).split('\n');
    pending = parts.pop()!;
    for (const part of parts) take(part);
  }
  const whole = pos >= size;
  if (collecting && whole) {
    pending += decoder.decode();
    if (pending !== '') take(pending);
  }
  const totalLines = whole ? newlines + (lastByte >= 0 && lastByte !== 10 ? 1 : 0) : undefined;

  const facts = `${count(size)} bytes${modified(target.stat.mtimeMs)}`;
  if (lines.length === 0) {
    if (totalLines === 0) return { binary: false, totalLines, text: `${note}${shown}: empty file (${facts}).` };
    if (totalLines !== undefined) {
      throw new FolderPathError(target.path, `offset ${offset} is past the end of "${shown}", which has ${count(totalLines)} lines.`);
    }
    throw new FolderPathError(target.path, `offset ${offset} is beyond the first ${count(limits.readScanMaxBytes)} bytes that read scans (about line ${count(newlines)}) of "${shown}" (${count(size)} bytes).`);
  }
  const first = offset;
  const last = offset + lines.length - 1;
  const of = totalLines !== undefined ? `of ${count(totalLines)}` : `of more than ${count(newlines)}`;
  const out = [`${shown} (lines ${count(first)}-${count(last)} ${of}; ${facts})`];
  if (note) out.push(note.trimEnd());
  out.push(...lines);
  const more = totalLines !== undefined ? totalLines - last : undefined;
  if (more === undefined || more > 0) {
    const why = charCut ? `the ${count(limits.outputMaxChars)}-character cap` : `the ${count(limits.readMaxLines)}-line cap`;
    const which = request.limit !== undefined && lines.length >= request.limit && !charCut ? 'the limit asked for' : why;
    const rest = more !== undefined ? `lines ${count(last + 1)}-${count(totalLines!)} (${count(more)} lines)` : `the rest of the file (past the ${count(limits.readScanMaxBytes)} bytes scanned)`;
    out.push(`[Cut at ${which}: ${rest} not shown; call read with offset ${last + 1} to continue.]`);
  }
  return { binary: false, text: out.join('\n'), shown: { first, last }, totalLines };
}
