/**
 * The import driver: feeds bytes (in chunks of any size) to the right importer and returns the
 * journal. It detects the format from the content unless one is given, reports malformed and
 * truncated lines with their numbers while keeping every good line, refuses empty, binary and
 * oversized files with a specific message, and links tool calls to their results at the end.
 */
import { linkToolCalls } from '../journal/link.ts';
import { describe, isRecord } from './builder.ts';
import { describeShape, detectDocumentFormat, detectJsonlFormat } from './detect.ts';
import { locateJsonError } from './json-error.ts';
import { LineSplitter, type Line } from './lines.ts';
import { IMPORTERS } from './registry.ts';
import {
  FORMAT_LABELS, ImportFormatError, MAX_IMPORT_BYTES, UnreadableFileError,
  type FormatId, type ImportIssue, type ImportResult, type LineImporter,
} from './types.ts';

export interface ImportOptions {
  /** Force a format instead of detecting it. */
  format?: FormatId;
  /** File name, used in error messages. */
  fileName?: string;
  /** Total size in bytes when known: files over 500 MB are refused before reading. */
  size?: number;
}

/** How many bytes are sniffed for binary content. */
const SNIFF_BYTES = 8192;

type Mode =
  | { kind: 'pending' }
  | { kind: 'jsonl'; format: FormatId; importer: LineImporter }
  | { kind: 'json' };

/**
 * A streaming import. Call `push` with each chunk (bytes or text), then `finish` once.
 * The result is the same however the input is chunked.
 */
export class ImportSession {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly splitter = new LineSplitter();
  private mode: Mode = { kind: 'pending' };
  /** Lines held until the format is known (only blank lines, at most the first non-empty one). */
  private held: Line[] = [];
  /** Whole text, kept only for JSON documents. */
  private documentText: string[] = [];
  private readonly lineIssues: ImportIssue[] = [];
  private sniffed = 0;
  private sawText = false;
  private bytesRead = 0;
  private lastLine: Line | undefined;

  constructor(private readonly options: ImportOptions = {}) {
    if (options.size !== undefined && options.size > MAX_IMPORT_BYTES) {
      throw new UnreadableFileError(
        `${this.name()} is ${(options.size / 1024 / 1024).toFixed(0)} MB; Foldlab imports files up to ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split the session or trim old lines first.`,
      );
    }
  }

  /** Bytes consumed so far (for progress). */
  get bytes(): number {
    return this.bytesRead;
  }

  push(chunk: Uint8Array | string): void {
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
      this.bytesRead += chunk.length;
    } else {
      this.sniff(chunk);
      this.bytesRead += chunk.byteLength;
      text = this.decoder.decode(chunk, { stream: true });
    }
    if (this.bytesRead > MAX_IMPORT_BYTES) {
      throw new UnreadableFileError(`${this.name()} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; Foldlab imports files up to that size.`);
    }
    this.accept(text);
  }

  finish(): ImportResult {
    this.accept(this.decoder.decode());
    for (const line of this.splitter.end()) this.onLine(line);
    if (!this.sawText) throw new UnreadableFileError(`${this.name()} is empty: there is nothing to import.`);
    if (this.mode.kind === 'pending') this.decide(undefined);
    let result: ImportResult;
    if (this.mode.kind === 'jsonl') {
      result = this.mode.importer.finish();
      // Physical lines of the file, blank and malformed ones included.
      result.lines = this.lastLine?.no ?? 0;
      result.issues = [...this.lineIssues, ...result.issues].sort((a, b) => a.line - b.line);
    } else {
      result = this.parseDocument();
    }
    if (result.entries.length === 0) {
      const first = result.issues[0];
      throw new ImportFormatError(
        `${this.name()} holds no conversation entries for ${FORMAT_LABELS[result.format]}` +
          (first ? ` (first problem: line ${first.line}: ${first.message})` : '.'),
      );
    }
    linkToolCalls(result.entries);
    return result;
  }

  private name(): string {
    return this.options.fileName ? `"${this.options.fileName}"` : 'The file';
  }

  private sniff(chunk: Uint8Array): void {
    if (this.sniffed >= SNIFF_BYTES) return;
    const end = Math.min(chunk.byteLength, SNIFF_BYTES - this.sniffed);
    let control = 0;
    for (let i = 0; i < end; i++) {
      const byte = chunk[i] ?? 0;
      if (byte === 0) throw new UnreadableFileError(`${this.name()} looks like a binary file (it contains NUL bytes); expected a JSON or JSONL transcript.`);
      if (byte < 8 || (byte > 13 && byte < 32 && byte !== 27)) control++;
    }
    if (end > 64 && control / end > 0.1) {
      throw new UnreadableFileError(`${this.name()} looks like a binary file (${control} control bytes in the first ${end}); expected a JSON or JSONL transcript.`);
    }
    this.sniffed += end;
  }

  private accept(text: string): void {
    if (text.length === 0) return;
    if (!this.sawText && text.trim().length > 0) this.sawText = true;
    if (this.mode.kind === 'json') {
      this.documentText.push(text);
      return;
    }
    for (const line of this.splitter.push(text)) this.onLine(line);
    // The first line showed a JSON document: from here on the text is kept whole, in order.
    if ((this.mode as Mode).kind === 'json') this.documentText.push(this.splitter.takePartial());
  }

  private onLine(line: Line): void {
    if (this.mode.kind === 'json') {
      this.documentText.push(line.text, line.terminated ? '\n' : '');
      return;
    }
    if (this.mode.kind === 'pending') {
      this.held.push(line);
      if (line.text.trim().length === 0) return;
      this.decide(line);
      return;
    }
    this.feed(line);
  }

  /** Chooses JSONL or JSON mode from the first non-empty line (or the forced format). */
  private decide(first: Line | undefined): void {
    const forced = this.options.format;
    let format: FormatId | undefined = forced;
    if (forced === undefined && first) {
      const value = tryParse(first.text);
      if (isRecord(value)) format = detectJsonlFormat(value);
    }
    const held = this.held;
    this.held = [];
    if (format && IMPORTERS[format].kind === 'jsonl') {
      const spec = IMPORTERS[format];
      if (spec.kind !== 'jsonl') return;
      this.mode = { kind: 'jsonl', format, importer: spec.create() };
      for (const line of held) this.feed(line);
      return;
    }
    this.mode = { kind: 'json' };
    for (const line of held) this.documentText.push(line.text, line.terminated ? '\n' : '');
    if (format) this.documentFormat = format;
  }

  private documentFormat: FormatId | undefined;

  private feed(line: Line): void {
    if (this.mode.kind !== 'jsonl') return;
    this.lastLine = line;
    if (line.text.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      if (!line.terminated) {
        this.lineIssues.push({ line: line.no, kind: 'truncated', message: 'the last line is cut off (incomplete JSON, the file may still be being written); it was skipped' });
      } else {
        this.lineIssues.push({ line: line.no, kind: 'malformed', message: `not valid JSON (${(error as Error).message}); expected one JSON object per line` });
      }
      return;
    }
    if (!isRecord(value)) {
      this.lineIssues.push({ line: line.no, kind: 'malformed', message: `expected a JSON object, got ${describe(value)}` });
      return;
    }
    this.mode.importer.line(value, line.no);
  }

  private parseDocument(): ImportResult {
    const text = this.documentText.join('');
    this.documentText = [];
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      const message = (error as Error).message;
      const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
      const firstValue = tryParse(firstLine);
      if (isRecord(firstValue)) {
        throw new ImportFormatError(
          `${this.name()} looks like JSONL but line 1 matches no known transcript format (it has keys ${describeShape(firstValue).replace('an object with keys ', '')}); expected Claude Code, Codex or pi session lines, or a JSON messages document.`,
        );
      }
      const location = locateJsonError(text);
      const detail = location ? `line ${location.line}, column ${location.column}: expected ${location.expected}` : message;
      throw new ImportFormatError(`${this.name()} is not valid JSON or JSONL: ${detail}.`, location?.line);
    }
    const format = this.documentFormat ?? detectDocumentFormat(doc);
    if (!format) {
      throw new ImportFormatError(
        `${this.name()} is JSON of an unknown shape (${describeShape(doc)}); expected an array of {role, content} messages, an object with a "messages" array, or records holding one (e.g. "traj").`,
      );
    }
    const spec = IMPORTERS[format];
    if (spec.kind !== 'json') {
      throw new ImportFormatError(`${this.name()} is a single JSON document, but ${FORMAT_LABELS[format]} is one JSON object per line.`);
    }
    const result = spec.importer.parse(doc, text);
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
    result.lines = lines;
    return result;
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Imports a whole text or byte array in one go (tests, CLI on small files). */
export function importText(input: string | Uint8Array, options: ImportOptions = {}): ImportResult {
  const session = new ImportSession({ ...options, size: options.size ?? (typeof input === 'string' ? undefined : input.byteLength) });
  session.push(input);
  return session.finish();
}
