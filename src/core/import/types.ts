/**
 * The contract every transcript importer follows. JSONL formats are fed one line at a time (so a
 * file of any size streams and chunking never changes the result); JSON formats get the parsed
 * document. Both report problems as issues with a 1-based line number and keep every good entry.
 */
import type { Entry } from '../journal/entry.ts';

export type FormatId = 'claude-code' | 'codex' | 'pi' | 'openai-chat' | 'anthropic' | 'openhands' | 'gemini-cli' | 'opencode' | 'cline' | 'cursor' | 'copilot-cli' | 'droid' | 'kimi' | 'kimi-code';

export const FORMAT_LABELS: Record<FormatId, string> = {
  'claude-code': 'Claude Code session (JSONL)',
  codex: 'Codex CLI rollout (JSONL)',
  pi: 'pi session (JSONL)',
  'openai-chat': 'OpenAI Chat Completions messages (JSON)',
  anthropic: 'Anthropic Messages (JSON)',
  openhands: 'OpenHands trajectory (JSON events)',
  'gemini-cli': 'Gemini CLI chat (JSON or JSONL)',
  opencode: 'opencode session (export JSON or storage folder)',
  cline: 'Cline / Roo Code task (history JSON or task folder)',
  cursor: 'Cursor agent transcript (JSONL) or chat store (state.vscdb)',
  'copilot-cli': 'GitHub Copilot CLI session (events.jsonl)',
  droid: 'Factory Droid session (session JSONL or exec stream-json)',
  kimi: 'Kimi CLI session (wire.jsonl or context.jsonl)',
  'kimi-code': 'Kimi Code session (an agent\'s wire.jsonl or the session folder)',
};

export const FORMAT_IDS = Object.keys(FORMAT_LABELS) as FormatId[];

/** A problem found while importing. `line` is 1-based. */
export interface ImportIssue {
  line: number;
  message: string;
  /**
   * malformed: not JSON / wrong shape; truncated: the last line was cut; unsupported: understood but
   * ignored; encoding: not UTF-8; too-long: over `MAX_LINE_BYTES`; too-deep: nested deeper than
   * `MAX_NESTING_DEPTH` (depth.ts). Every kind means the line was skipped, except duplicate: the
   * line repeats an entry id of an earlier line, and the message says which line and what was kept.
   */
  kind: 'malformed' | 'truncated' | 'unsupported' | 'encoding' | 'too-long' | 'too-deep' | 'duplicate';
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
  /**
   * The git branch the session worked on, as its source recorded it: Claude Code's `gitBranch` (the
   * first line that names one), Codex's `session_meta` `git.branch`, Copilot CLI's `session.start`
   * `context.branch` or `workspace.yaml` `branch`.
   */
  gitBranch?: string;
  /**
   * When the session started, as its source recorded it (epoch ms): Codex's `session_meta`
   * timestamp, pi's session header, Gemini CLI's `startTime`, opencode's `time.created`, Cursor's
   * composer `createdAt`, Copilot CLI's `session.start` `startTime` or `workspace.yaml` `created_at`.
   * Never guessed from the first entry's time.
   */
  createdAt?: number;
  /**
   * Subagents this session started, by agent id -> the tool call that started them (Claude Code 2.1
   * records `toolUseResult.agentId` on the call's result).
   */
  subagentCalls?: Record<string, string>;
  /** Set when this conversation is a subagent's own thread: the session that started it. */
  subagent?: SubagentLink;
}

/**
 * How a subagent thread hangs under its parent session. Claude Code writes a subagent's traffic to
 * `<session>/subagents/agent-<id>.jsonl` (2.1), to `agent-<id>.jsonl` beside the session (2.0), or
 * inline in the session file as `isSidechain` lines (1.0); every line carries the parent's `sessionId`.
 */
export interface SubagentLink {
  /** The parent session's id (its conversations carry it as `meta.sessionId`). */
  parentSessionId?: string;
  /** The lines' `agentId` (2.0 and later), or `sidechain-<n>` for the n-th inline thread of a file. */
  agentId?: string;
  /** From `agent-<id>.meta.json` `agentType`, or the parent's `Task` call `subagent_type`. */
  agentType?: string;
  /** From `agent-<id>.meta.json` `description`, or the parent's `Task` call `description`. */
  description?: string;
  /** The parent's tool call that started this subagent, when it could be matched. */
  parentToolUseId?: string;
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
  /** Problems found in all; `issues` lists the first `MAX_LISTED_ISSUES` of them by line. Set by the driver. */
  issueCount?: number;
  /** Blank (empty or whitespace-only) lines of a JSONL file. Set by the driver. */
  blankLines?: number;
  /**
   * Subagent threads written inline in this file (Claude Code 1.0 `isSidechain` lines), each a
   * conversation of its own with `meta.subagent` set; `entries` holds the main thread only.
   */
  threads?: ImportResult[];
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

/** Issues kept in a result's list (the count stays exact). Default 1000. */
export const MAX_LISTED_ISSUES = 1000;

/**
 * A JSONL line longer than this is refused (reported by number, the rest imported). 64 MiB: a line
 * records one message or event of one model request, and the APIs cap a request body well below
 * that (Anthropic Messages: 32 MB, with at most 5 MB of base64 per image; OpenAI: 20 MB per image),
 * so a real line carrying several pasted images still fits, while a runaway line cannot take the
 * worker's memory. Unit: bytes.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Files larger than this are refused before reading (bytes). */
export const MAX_IMPORT_BYTES = 500 * 1024 * 1024;
