/**
 * The import driver: feeds bytes (in chunks of any size) to the right importer and returns the
 * journal. It detects the format from the content unless one is given, reports malformed, truncated,
 * non-UTF-8, over-long and too deeply nested lines with their numbers while keeping every good line, counts blank
 * lines, refuses empty, binary and oversized files with a specific message, and links tool calls to
 * their results at the end.
 */
import { linkToolCalls } from '../journal/link.ts';
import { describe, isRecord } from './builder.ts';
import { MAX_NESTING_DEPTH, mayNestDeeperThan, nestingDepth, withoutDeepEntries } from './depth.ts';
import { cursorTranscriptPath } from './cursor.ts';
import { describeShape, detectDocumentFormat, detectJsonlFormat, isUndecidedOpening } from './detect.ts';
import { locateJsonError } from './json-error.ts';
import { LineSplitter, type Line } from './lines.ts';
import { IMPORTERS } from './registry.ts';
import {
  FORMAT_LABELS, ImportFormatError, MAX_IMPORT_BYTES, MAX_LINE_BYTES, MAX_LISTED_ISSUES, UnreadableFileError,
  type FormatId, type ImportIssue, type ImportResult, type LineImporter,
} from './types.ts';
import { binaryMessage, binaryReason, SNIFF_BYTES } from './binary.ts';

export interface ImportOptions {
  /** Force a format instead of detecting it. */
  format?: FormatId;
  /** File name, used in error messages. */
  fileName?: string;
  /** Total size in bytes when known: files over 500 MB are refused before reading. */
  size?: number;
  /** Longest JSONL line accepted. Default `MAX_LINE_BYTES` (64 MiB). Unit: bytes. */
  maxLineBytes?: number;
}


type Mode =
  | { kind: 'pending' }
  | { kind: 'jsonl'; format: FormatId; importer: LineImporter }
  | { kind: 'json' };

/**
 * A streaming import. Call `push` with each chunk (bytes or text), then `finish` once.
 * The result is the same however the input is chunked.
 */
export class ImportSession {
  private readonly encoder = new TextEncoder();
  private readonly splitter: LineSplitter;
  private mode: Mode = { kind: 'pending' };
  /** Lines held until the format is known (only blank lines, at most the first non-empty one). */
  private held: Line[] = [];
  /** Whole text, kept only for JSON documents. */
  private documentText: string[] = [];
  private readonly lineIssues: ImportIssue[] = [];
  /** Line issues in all (only the first `MAX_LISTED_ISSUES` are kept). */
  private lineIssueCount = 0;
  private blankLines = 0;
  /** The first non-whitespace byte of the file: '[' can only start a JSON document. */
  private firstByte: number | undefined;
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
    this.splitter = new LineSplitter(options.maxLineBytes ?? MAX_LINE_BYTES);
    // A forced document format is read whole, whatever its line lengths.
    if (options.format !== undefined && IMPORTERS[options.format].kind === 'json') this.enterDocumentMode(options.format);
  }

  /** Bytes consumed so far (for progress). */
  get bytes(): number {
    return this.bytesRead;
  }

  push(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === 'string' ? this.encoder.encode(chunk) : chunk;
    if (typeof chunk !== 'string') this.sniff(bytes);
    this.bytesRead += bytes.byteLength;
    if (this.bytesRead > MAX_IMPORT_BYTES) {
      throw new UnreadableFileError(`${this.name()} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; Foldlab imports files up to that size.`);
    }
    this.watchFirstByte(bytes);
    for (const line of this.splitter.push(bytes)) this.onLine(line);
  }

  finish(): ImportResult {
    for (const line of this.splitter.end()) this.onLine(line);
    if (!this.sawText) throw new UnreadableFileError(`${this.name()} is empty: there is nothing to import.`);
    if (this.mode.kind === 'pending') {
      // Only refused or blank lines: say why the first refused line could not be read.
      const first = this.lineIssues[0];
      if (first !== undefined && this.held.every((line) => line.text.trim().length === 0)) {
        throw new ImportFormatError(`${this.name()} has no line that could be read: line ${first.line}: ${first.message}`, first.line);
      }
      // A file that is only its opening line is read as that line says.
      this.decide(this.held.find((line) => isUndecidedOpening(tryParse(line.text))));
    }
    let result: ImportResult;
    if (this.mode.kind === 'jsonl') {
      result = this.mode.importer.finish();
      // Physical lines of the file, blank and malformed ones included.
      result.lines = this.lastLine?.no ?? 0;
      result.issueCount = this.lineIssueCount + result.issues.length;
      result.issues = [...this.lineIssues, ...result.issues].sort((a, b) => a.line - b.line).slice(0, MAX_LISTED_ISSUES);
      result.blankLines = this.blankLines;
    } else {
      result = this.parseDocument();
      result.issueCount ??= result.issues.length;
      result.blankLines ??= 0;
    }
    if (result.entries.length === 0) {
      const first = result.issues[0];
      throw new ImportFormatError(
        `${this.name()} holds no conversation entries for ${FORMAT_LABELS[result.format]}` +
          (first ? ` (first problem: line ${first.line}: ${first.message})` : '.'),
      );
    }
    linkToolCalls(result.entries);
    for (const thread of result.threads ?? []) linkToolCalls(thread.entries);
    // A Cursor transcript's lines name no session: its file name does.
    if (result.format === 'cursor' && result.meta.sessionId === undefined && this.options.fileName) {
      const named = cursorTranscriptPath(this.options.fileName);
      if (named) result.meta.sessionId = named.sessionId;
    }
    return result;
  }

  private name(): string {
    return this.options.fileName ? `"${this.options.fileName}"` : 'The file';
  }

  private sniff(chunk: Uint8Array): void {
    if (this.sniffed >= SNIFF_BYTES) return;
    const end = Math.min(chunk.byteLength, SNIFF_BYTES - this.sniffed);
    const reason = binaryReason(chunk.subarray(0, end));
    if (reason !== undefined) throw new UnreadableFileError(binaryMessage(this.name(), reason));
    this.sniffed += end;
  }

  /** Until the first non-whitespace byte is seen: a '[' there means a JSON document, read without a line cap. */
  private watchFirstByte(bytes: Uint8Array): void {
    if (this.firstByte !== undefined) return;
    for (const byte of bytes) {
      if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
      this.firstByte = byte;
      const forced = this.options.format;
      const forcedLines = forced !== undefined && IMPORTERS[forced].kind === 'jsonl';
      if (byte === 0x5b && this.mode.kind === 'pending' && !forcedLines) this.enterDocumentMode(forced);
      return;
    }
  }

  private enterDocumentMode(format: FormatId | undefined): void {
    this.mode = { kind: 'json' };
    this.splitter.maxLineBytes = Number.POSITIVE_INFINITY;
    if (format) this.documentFormat = format;
  }

  private onLine(line: Line): void {
    if (!this.sawText && line.text.trim().length > 0) this.sawText = true;
    if (this.mode.kind === 'json') {
      if (line.refused?.reason === 'encoding') {
        throw new ImportFormatError(`${this.name()} is not valid UTF-8: line ${line.no}, byte ${line.refused.offset + 1} of the line.`, line.no);
      }
      this.documentText.push(line.text, line.terminated ? '\n' : '');
      return;
    }
    if (line.refused) {
      this.sawText = true;
      this.lastLine = line;
      this.refuse(line);
      return;
    }
    if (this.mode.kind === 'pending') {
      this.held.push(line);
      if (line.text.trim().length === 0) return;
      // A broken object line says nothing about the format, nor a wire metadata line two agents write
      // alike: the next good line decides.
      if (this.options.format === undefined && (looksLikeBrokenLine(line.text) || isUndecidedOpening(tryParse(line.text)))) return;
      this.decide(line);
      return;
    }
    this.feed(line);
  }

  private refuse(line: Line): void {
    const refused = line.refused;
    if (refused === undefined) return;
    if (refused.reason === 'too-long') {
      const limit = this.splitter.maxLineBytes;
      this.issue({
        line: line.no,
        kind: 'too-long',
        message: `the line is ${megabytes(line.bytes)}, over the ${megabytes(limit)} limit for one line; it was skipped. If the file is one JSON document (OpenAI or Anthropic messages), choose that format instead of Auto`,
      });
    } else {
      this.issue({ line: line.no, kind: 'encoding', message: `not valid UTF-8 (byte ${refused.offset + 1} of the line starts no valid character); it was skipped` });
    }
  }

  private issue(issue: ImportIssue): void {
    this.lineIssueCount++;
    if (this.lineIssues.length < MAX_LISTED_ISSUES) this.lineIssues.push(issue);
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
    // A forced format whose file is one JSON document (its first line is no JSON value) reads as one.
    const wholeDocument = forced !== undefined && first !== undefined && tryParse(first.text) === undefined && hasDocumentForm(forced);
    if (format && IMPORTERS[format].kind === 'jsonl' && !wholeDocument) {
      const spec = IMPORTERS[format];
      if (spec.kind !== 'jsonl') return;
      this.mode = { kind: 'jsonl', format, importer: spec.create() };
      for (const line of held) this.feed(line);
      return;
    }
    // A document cannot lose a line: one refused while the format was unknown refuses the file.
    const refused = this.lineIssues[0];
    if (refused !== undefined) throw new ImportFormatError(`${this.name()} is not a JSONL transcript and cannot be read as one JSON document: line ${refused.line}: ${refused.message}`, refused.line);
    this.enterDocumentMode(format);
    for (const line of held) this.documentText.push(line.text, line.terminated ? '\n' : '');
  }

  private documentFormat: FormatId | undefined;

  private feed(line: Line): void {
    if (this.mode.kind !== 'jsonl') return;
    this.lastLine = line;
    if (line.text.trim().length === 0) {
      this.blankLines++;
      return;
    }
    let value: unknown;
    try {
      // A key written twice in a line keeps its last value (JSON.parse), as the tools that write
      // these formats read it back; a repeated entry id or uuid is reported by the importers.
      value = JSON.parse(line.text);
    } catch (error) {
      if (!line.terminated) {
        this.issue({ line: line.no, kind: 'truncated', message: 'the last line is cut off (incomplete JSON, the file may still be being written); it was skipped' });
      } else {
        this.issue({ line: line.no, kind: 'malformed', message: `not valid JSON (${(error as Error).message}); expected one JSON object per line` });
      }
      return;
    }
    if (!isRecord(value)) {
      this.issue({ line: line.no, kind: 'malformed', message: `expected a JSON object, got ${describe(value)}` });
      return;
    }
    if (mayNestDeeperThan(line.text)) {
      const depth = nestingDepth(value);
      if (depth > MAX_NESTING_DEPTH) {
        this.issue({ line: line.no, kind: 'too-deep', message: `nested ${depth.toLocaleString('en-US')} levels deep (Foldlab reads up to ${MAX_NESTING_DEPTH.toLocaleString('en-US')}); the line was skipped` });
        return;
      }
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
      // A JSONL file whose first line is a stray array ("[]"): read it as the lines it holds.
      const lineFormat = this.options.format === undefined ? jsonlFormatOfSomeLine(text) : undefined;
      if (lineFormat !== undefined) return importLinesOf(text, { ...this.options, format: lineFormat });
      if (isRecord(firstValue)) {
        throw new ImportFormatError(
          `${this.name()} looks like JSONL but line 1 matches no known transcript format (it has keys ${describeShape(firstValue).replace('an object with keys ', '')}); expected Claude Code, Codex, pi, Gemini CLI, Cursor, GitHub Copilot CLI, Factory Droid or Kimi CLI session lines, or a JSON document (messages, OpenHands events, a Gemini CLI chat, an opencode export, a Cline history).`,
        );
      }
      const location = locateJsonError(text);
      const detail = location ? `line ${location.line}, column ${location.column}: expected ${location.expected}` : message;
      throw new ImportFormatError(`${this.name()} is not valid JSON or JSONL: ${detail}.`, location?.line);
    }
    const format = this.documentFormat ?? detectDocumentFormat(doc);
    if (!format) {
      throw new ImportFormatError(
        `${this.name()} is JSON of an unknown shape (${describeShape(doc)}); expected an array of {role, content} messages, an object with a "messages" array, records holding one (e.g. "traj"), or OpenHands events ({id, source, action|observation}).`,
      );
    }
    const spec = IMPORTERS[format];
    const importer = spec.kind === 'json' ? spec.importer : spec.document;
    if (importer === undefined) {
      throw new ImportFormatError(`${this.name()} is a single JSON document, but ${FORMAT_LABELS[format]} is one JSON object per line.`);
    }
    const result = importer.parse(doc, text);
    if (mayNestDeeperThan(text)) {
      const { entries, refused } = withoutDeepEntries(result.entries);
      const issueCount = result.issueCount ?? result.issues.length;
      result.entries = entries;
      result.issues = [...result.issues, ...refused.map(({ line, depth }) => ({ line, kind: 'too-deep' as const, message: `a message nested ${depth.toLocaleString('en-US')} levels deep (Foldlab reads up to ${MAX_NESTING_DEPTH.toLocaleString('en-US')}); it was skipped` }))].sort((a, b) => a.line - b.line);
      result.issueCount = issueCount + refused.length;
    }
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
    result.lines = lines;
    return result;
  }
}

/** The JSONL format of the first line (of the first 50) that is a known transcript line, if any. */
function jsonlFormatOfSomeLine(text: string): FormatId | undefined {
  let start = 0;
  for (let n = 0; n < 50 && start < text.length; n++) {
    const end = text.indexOf('\n', start);
    const value = tryParse(text.slice(start, end === -1 ? undefined : end));
    if (isRecord(value)) {
      const format = detectJsonlFormat(value);
      if (format !== undefined && IMPORTERS[format].kind === 'jsonl') return format;
    }
    if (end === -1) break;
    start = end + 1;
  }
  return undefined;
}

function hasDocumentForm(format: FormatId): boolean {
  const spec = IMPORTERS[format];
  return spec.kind === 'jsonl' && spec.document !== undefined;
}

/** Imports `text` again as lines of a known JSONL format (line numbers unchanged). */
function importLinesOf(text: string, options: ImportOptions): ImportResult {
  const session = new ImportSession(options);
  session.push(text);
  return session.finish();
}

/** A size as `900 bytes`, `4 KiB`, `4.9 KiB`, `64 MiB`, `100.0 MiB`. */
export function megabytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / 1024 / 1024, 'MiB'];
  return Number.isInteger(value) ? `${value} ${unit}` : `${value.toFixed(1)} ${unit}`;
}

/**
 * A line that fails to parse yet looks like one JSONL object (starts with '{' or ends with '}'), as
 * opposed to the first line of a pretty-printed document (`{`, `{"messages": [`, ...).
 */
function looksLikeBrokenLine(text: string): boolean {
  const t = text.trim();
  if (t.length < 2 || /[[{,:]$/.test(t) || !(t.startsWith('{') || t.endsWith('}'))) return false;
  return tryParse(t) === undefined;
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
