/**
 * The contract every transcript importer follows. JSONL formats are fed one line at a time (so a
 * file of any size streams and chunking never changes the result); JSON formats get the parsed
 * document. Both report problems as issues with a 1-based line number and keep every good entry.
 */
import type { Entry } from '../journal/entry.ts';

export type FormatId = 'claude-code' | 'codex' | 'pi' | 'openai-chat' | 'anthropic';

export const FORMAT_LABELS: Record<FormatId, string> = {
  'claude-code': 'Claude Code session (JSONL)',
  codex: 'Codex CLI rollout (JSONL)',
  pi: 'pi session (JSONL)',
  'openai-chat': 'OpenAI Chat Completions messages (JSON)',
  anthropic: 'Anthropic Messages (JSON)',
};

export const FORMAT_IDS = Object.keys(FORMAT_LABELS) as FormatId[];

/** A problem found while importing. `line` is 1-based. */
export interface ImportIssue {
  line: number;
  message: string;
  /** malformed: not JSON / wrong shape; truncated: the last line was cut; skipped: understood but ignored. */
  kind: 'malformed' | 'truncated' | 'unsupported';
}

/** What the source says about the session as a whole. */
export interface SessionMeta {
  title?: string;
  sessionId?: string;
  cwd?: string;
  model?: string;
  /** Context window the source recorded (Codex `model_context_window`). */
  contextWindow?: number;
  version?: string;
}

export interface ImportResult {
  format: FormatId;
  entries: Entry[];
  issues: ImportIssue[];
  meta: SessionMeta;
  /** Lines in the file (JSONL: set by the driver, blank and malformed lines included; JSON: the document's lines). */
  lines: number;
  /** Lines understood but not turned into entries (metadata, snapshots, duplicated events). */
  ignoredLines: number;
}

/** A streaming JSONL importer: `line` for each non-empty line in order, then `finish` once. */
export interface LineImporter {
  /** `value` is the parsed JSON of the line (already checked to be an object). */
  line(value: Record<string, unknown>, lineNo: number): void;
  finish(): ImportResult;
}

/** A JSON-document importer. */
export interface DocumentImporter {
  /** Throws ImportFormatError if the document is not of this format's shape. */
  parse(doc: unknown, text: string): ImportResult;
}

/** A user-actionable import failure: which file, which line, what was expected. */
export class ImportFormatError extends Error {
  override name = 'ImportFormatError';
  readonly line: number | undefined;
  /** `message` must already name the line when there is one; `line` is kept for programs. */
  constructor(message: string, line?: number) {
    super(message);
    this.line = line;
  }
}

/** Thrown for input that cannot be a transcript at all (empty, binary, too large). */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
}

/** Files larger than this are refused before reading (bytes). */
export const MAX_IMPORT_BYTES = 500 * 1024 * 1024;
