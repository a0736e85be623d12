/**
 * The provider-neutral journal entry: every importer turns its format into these, and every later
 * stage (token counts, strategies, folding, export) reads only these. Entries are never rewritten
 * once stored; compaction writes new records that point at ranges of them.
 */
import { jsonText } from './json-text.ts';

/** Who speaks. `tool` entries hold tool results; `summary` entries are produced by compaction. */
export type Role = 'system' | 'user' | 'assistant' | 'tool' | 'summary';

/**
 * What an entry is, beyond its role:
 * - `message`: part of the conversation a model sees (counted in roles, tokens, context).
 * - `compaction`: a compaction marker the source recorded (Claude `compact_boundary` / compact
 *   summary, Codex `compacted`, pi `compaction` / `branch_summary`). Kept as a marker, shown
 *   collapsed; its text is the summary the source agent produced.
 * - `event`: harness output that is not model context (hook output, local command echo,
 *   `bashExecution` excluded from context, api errors). Shown dimmed, not counted in roles.
 */
export type EntryKind = 'message' | 'compaction' | 'event';

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ThinkingBlock {
  type: 'thinking';
  /** The visible reasoning text; may be empty when the source kept only a signature. */
  text: string;
  /** Opaque replay blob (Anthropic signature, Codex encrypted_content): kept, never summarized. */
  signature?: string;
  /** True for `redacted_thinking` or encrypted-only reasoning. */
  redacted?: boolean;
}

export interface ToolCallBlock {
  type: 'tool_call';
  /** The pairing key of the source format (tool_use.id, call_id, tool_calls[].id, toolCall.id). */
  callId: string;
  name: string;
  /** Parsed arguments (object) when they are JSON; otherwise the raw text (e.g. an apply_patch body). */
  input: unknown;
  /** Set by `linkToolCalls`: id of the entry holding the matching result, or absent if orphaned. */
  resultEntryId?: string;
  /**
   * Run by the provider inside the model response (Codex `web_search_call`, a server-side
   * `tool_search_call`): its result is part of the response, so it is complete without a result entry.
   */
  hosted?: true;
}

export interface ImageBlock {
  type: 'image';
  /** MIME type when known (image/png), else 'image'. */
  mediaType: string;
  /** Size of the encoded data in bytes (base64 decoded length), or 0 for a URL reference. */
  bytes: number;
  /** A remote or data URL is never kept: only whether it was one. */
  source: 'base64' | 'url' | 'file';
}

export interface ToolResultBlock {
  type: 'tool_result';
  callId: string;
  /** Tool name when the source records it on the result (pi, Chat Completions `name`). */
  toolName?: string;
  /** Text and image parts of the result, in order. */
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
  /** Set by `linkToolCalls`: id of the entry holding the matching call, or absent if orphaned. */
  callEntryId?: string;
}

export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ToolResultBlock | ImageBlock;
export type BlockType = Block['type'];
export const BLOCK_TYPES: readonly BlockType[] = ['text', 'thinking', 'tool_call', 'tool_result', 'image'];

/** Token usage as the source recorded it for one model response, normalized. */
export interface Usage {
  /** Prompt tokens including cache reads and writes (so it is comparable across providers). */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Reasoning tokens when reported separately (already included in `output`). */
  reasoning?: number;
}

/** Flags an importer sets so later stages never mistake injected text for the user's words. */
export interface EntryFlags {
  /** Harness-injected text posing as a user message (system-reminder, environment_context, ...). */
  injected?: boolean;
  /** Subagent (sidechain) traffic: not part of the main context. */
  sidechain?: boolean;
  /** Synthetic assistant output (API error text, "No response requested."). */
  synthetic?: boolean;
  /** The entry reports an error (an API error, an aborted response). */
  error?: boolean;
  /** The model stopped without finishing (aborted, interrupted). */
  aborted?: boolean;
  /** Pinned by the user (never summarized). */
  pinned?: boolean;
}

export interface CompactionMarker {
  /** Which source construct this is, e.g. 'claude.compact_boundary', 'codex.compacted', 'pi.compaction'. */
  source: string;
  trigger?: string;
  tokensBefore?: number;
  /** pi: id of the first entry kept after the summary. */
  firstKeptEntryId?: string;
  /** pi branch_summary: the abandoned leaf. */
  fromId?: string;
  /** Files the source agent said it read / modified (pi `details`). */
  readFiles?: string[];
  modifiedFiles?: string[];
  /**
   * Foldlab's live loop: the context its compaction assembled and the state the next one reads,
   * so a resumed session sees exactly that context (masked, cleared and compressed rewrites
   * included), not only the summary and the entries from `firstKeptEntryId`.
   */
  context?: RecordedContext;
}

/** An entry of a recorded context: a journal entry by id, or an entry the strategy made, in full. */
export type RecordedContextItem =
  | { role: Role; entryId: string }
  | { role: Role; origin: 'summary' | 'compressed' | 'synthetic'; entry: Entry; replaces?: { fromId: string; toId: string; count: number } };

/**
 * One step of a recorded context, read over the context the model had before the compaction
 * (the previous compaction's context, then the entries since): keep or skip the next `n` of
 * those, or put an entry there.
 */
export type RecordedContextEdit = { keep: number } | { skip: number } | { put: RecordedContextItem };

/** A compaction's assembled history as the live loop records it with its compaction entry: only what changed. */
export interface RecordedContext {
  edits: RecordedContextEdit[];
  /** What the next compaction reads (the strategy's `PreviousCompaction`). */
  previous: { strategy: string; summaries: string[]; firstKeptEntryId?: string; state?: Record<string, unknown> };
}

export interface Entry {
  /** Stable within its conversation: the source's own id (uuid, pi id) or `l<line>` / `m<index>`. */
  id: string;
  /** Position in the journal (0-based, file order after merging split lines). */
  index: number;
  /** Parent in the session tree (null at a root). Linear formats chain each entry to the previous. */
  parentId: string | null;
  role: Role;
  kind: EntryKind;
  blocks: Block[];
  /** Epoch milliseconds, when the source recorded a time. */
  timestamp?: number;
  /** Usage of the model response this entry is, counted once per response. */
  usage?: Usage;
  model?: string;
  /** The source's own type for this line ('assistant', 'response_item/function_call', ...). */
  sourceType: string;
  /** 1-based first and last line of the source file that produced this entry (JSON formats: the line of the object). */
  line: number;
  lineEnd?: number;
  flags?: EntryFlags;
  marker?: CompactionMarker;
}

/** Plain text of a block, as it is shown and counted. Tool calls render as `name(json)`. */
export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.text;
    case 'tool_call':
      return `${block.name}(${typeof block.input === 'string' ? block.input : jsonText(block.input)})`;
    case 'tool_result':
      return block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    case 'image':
      return '';
  }
}

/** Plain text of a whole entry (blocks joined by newlines). */
export function entryText(entry: Entry): string {
  return entry.blocks.map(blockText).filter((text) => text.length > 0).join('\n');
}

/** Number of images in a block, counting those inside tool results. */
export function blockImages(block: Block): number {
  if (block.type === 'image') return 1;
  if (block.type === 'tool_result') return block.content.filter((part) => part.type === 'image').length;
  return 0;
}
