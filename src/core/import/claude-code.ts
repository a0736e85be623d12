/**
 * Reads Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`, FORMATS.md §1) into
 * journal entries: it follows the `parentUuid` tree through lines that are not entries, merges an
 * API response written as one line per content block, and tags harness-injected text as such.
 */
import type {
  Block, CompactionMarker, Entry, EntryFlags, ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultBlock, Usage,
} from '../journal/entry.ts';
import { EntryBuilder, base64Bytes, describe, imageFromUrl, isRecord, num, str, toEpochMs, type EntryDraft } from './builder.ts';
import type { ImportResult, LineImporter } from './types.ts';

type Json = Record<string, unknown>;

/** Line types that carry conversation and a `uuid`; a repeated uuid of these is a copied line. */
const ENTRY_TYPES = new Set(['user', 'assistant', 'system']);

/**
 * How many entries we walk up when deciding whether a split assistant line continues an earlier
 * response. Parallel tool calls put tool results (and old-style hook events) between the parts,
 * so the parent is not always the response itself; the parts of one response are never this far apart.
 */
const MAX_RESPONSE_WALK = 256;

/** Text prefixes the harness writes into user lines (FORMATS.md §1.6 pitfall 3): never the user's words. */
const INJECTED_PREFIXES = [
  '<command-name>', '<command-message>', '<command-args>', '<local-command-', '<bash-input>', '<bash-stdout>',
  '<bash-stderr>', '<task-notification>', '[Request interrupted by user',
  // A compact summary written without `isCompactSummary` (older CLIs) is still not the user speaking.
  'This session is being continued from a previous conversation',
];

const REMINDER_OPEN = '<system-reminder>';
const REMINDER_CLOSE = '</system-reminder>';

/** True when the text is nothing but `<system-reminder>` blocks (scanned, not regexed: these can be huge). */
function isOnlyReminders(text: string): boolean {
  let pos = 0;
  let found = false;
  for (;;) {
    while (pos < text.length && /\s/.test(text.charAt(pos))) pos++;
    if (pos >= text.length) return found;
    if (!text.startsWith(REMINDER_OPEN, pos)) return false;
    const close = text.indexOf(REMINDER_CLOSE, pos + REMINDER_OPEN.length);
    if (close === -1) return false;
    pos = close + REMINDER_CLOSE.length;
    found = true;
  }
}

/** Whether a user text is harness output rather than the user's words (exported for tests and the UI). */
export function isInjectedText(text: string): boolean {
  const start = text.trimStart();
  return INJECTED_PREFIXES.some((prefix) => start.startsWith(prefix)) || isOnlyReminders(start);
}

/** `describe` for a field that may be missing altogether. */
function got(value: unknown): string {
  return value === undefined ? 'nothing (the field is missing)' : describe(value);
}

/** Claude usage excludes cache tokens from `input_tokens`; the journal counts the whole prompt. */
function normalizeUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  const cacheRead = num(raw.cache_read_input_tokens);
  const cacheWrite = num(raw.cache_creation_input_tokens);
  if (input === undefined && output === undefined && cacheRead === undefined && cacheWrite === undefined) return undefined;
  const usage: Usage = { input: (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0), output: output ?? 0 };
  if (cacheRead !== undefined) usage.cacheRead = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  return usage;
}

function imageBlock(raw: Json): ImageBlock {
  const source = isRecord(raw.source) ? raw.source : {};
  const mediaType = str(source.media_type) ?? 'image';
  switch (str(source.type)) {
    case 'base64':
      return { type: 'image', mediaType, bytes: base64Bytes(str(source.data) ?? ''), source: 'base64' };
    case 'url': {
      // Only the kind of reference is kept, never the address (a data URL still has a size).
      const url = str(source.url) ?? '';
      return url.startsWith('data:') ? imageFromUrl(url) : { type: 'image', mediaType, bytes: 0, source: 'url' };
    }
    default:
      // `file` (Files API id) and sources newer than this importer: a reference, no inline bytes.
      return { type: 'image', mediaType, bytes: 0, source: 'file' };
  }
}

/** A short stand-in for a part we do not model (web search hits, documents, future types). */
function placeholder(raw: Json): string {
  const type = str(raw.type) ?? 'block';
  const title = str(raw.title) ?? str(raw.tool_name) ?? str(raw.name);
  const url = str(raw.url);
  if (title && url) return `[${type}: ${title} (${url})]`;
  if (title) return `[${type}: ${title}]`;
  const code = str(raw.error_code);
  return code ? `[${type}: ${code}]` : `[${type}]`;
}

/** Parts of a tool result: text and images kept, anything else rendered as a short text. */
function resultParts(content: unknown): Array<TextBlock | ImageBlock> {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  const items = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  const parts: Array<TextBlock | ImageBlock> = [];
  for (const item of items) {
    if (typeof item === 'string') {
      parts.push({ type: 'text', text: item });
    } else if (isRecord(item)) {
      if (item.type === 'text') parts.push({ type: 'text', text: str(item.text) ?? '' });
      else if (item.type === 'image') parts.push(imageBlock(item));
      else if (item.type === 'tool_reference') parts.push({ type: 'text', text: `[tool: ${str(item.tool_name) ?? '?'}]` });
      else if (typeof item.text === 'string') parts.push({ type: 'text', text: item.text });
      else parts.push({ type: 'text', text: placeholder(item) });
    }
  }
  return parts;
}

function documentText(raw: Json): string {
  const source = isRecord(raw.source) ? raw.source : {};
  const label = str(raw.title) ?? str(source.media_type) ?? 'document';
  // A plain-text or content document is model context: keep its text so it is counted.
  if (source.type === 'text' && typeof source.data === 'string') return `[document: ${label}]\n${source.data}`;
  if (source.type === 'content') {
    const text = resultParts(source.content).map((part) => (part.type === 'text' ? part.text : '')).filter(Boolean).join('\n');
    return text ? `[document: ${label}]\n${text}` : `[document: ${label}]`;
  }
  return `[document: ${label}]`;
}

/**
 * One content block of a message. `fallbackId` names a call or result whose id is missing, so it
 * stays an orphan instead of pairing with another id-less block.
 */
function convertBlock(raw: unknown, fallbackId: string): Block | undefined {
  if (typeof raw === 'string') return { type: 'text', text: raw };
  if (!isRecord(raw)) return undefined;
  const type = str(raw.type);
  switch (type) {
    case 'text':
      return { type: 'text', text: str(raw.text) ?? '' };
    case 'thinking': {
      const block: ThinkingBlock = { type: 'thinking', text: str(raw.thinking) ?? str(raw.text) ?? '' };
      const signature = str(raw.signature);
      if (signature !== undefined) block.signature = signature;
      return block;
    }
    case 'redacted_thinking': {
      // The encrypted `data` is the replay blob: kept like a signature, never shown.
      const block: ThinkingBlock = { type: 'thinking', text: '', redacted: true };
      const data = str(raw.data);
      if (data !== undefined) block.signature = data;
      return block;
    }
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use': {
      const call: ToolCallBlock = { type: 'tool_call', callId: str(raw.id) ?? fallbackId, name: str(raw.name) ?? '(unnamed)', input: raw.input ?? {} };
      return call;
    }
    case 'image':
      return imageBlock(raw);
    case 'document':
      return { type: 'text', text: documentText(raw) };
    default:
      break;
  }
  if (type === 'tool_result' || (type !== undefined && type.endsWith('_tool_result'))) {
    // Server tool results (web_search_tool_result, …) pair with their server_tool_use like any tool.
    const content = raw.content;
    const errorType = isRecord(content) && typeof content.type === 'string' && content.type.endsWith('_error');
    const result: ToolResultBlock = {
      type: 'tool_result',
      callId: str(raw.tool_use_id) ?? fallbackId,
      content: resultParts(content),
      isError: raw.is_error === true || errorType,
    };
    return result;
  }
  if (typeof raw.text === 'string') return { type: 'text', text: raw.text };
  return { type: 'text', text: placeholder(raw) };
}

function convertContent(content: string | unknown[], lineNo: number): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: Block[] = [];
  content.forEach((raw, i) => {
    const block = convertBlock(raw, `l${lineNo}:${i}`);
    if (block) blocks.push(block);
  });
  return blocks;
}

/** The text of an old-style or subtyped system line, for display (these are not model context). */
function systemText(value: Json): string {
  const content = str(value.content);
  if (content !== undefined && content.length > 0) return content;
  const subtype = str(value.subtype) ?? 'system';
  const error = errorMessage(value.error) ?? errorMessage(value.cause);
  if (error) return `[${subtype}] ${error}`;
  const duration = num(value.durationMs);
  if (duration !== undefined) return `[${subtype}] ${duration} ms`;
  return `[${subtype}]`;
}

function errorMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (!isRecord(value) || depth > 3) return undefined;
  return str(value.message) ?? errorMessage(value.error, depth + 1);
}

class ClaudeCodeImporter implements LineImporter {
  private readonly builder = new EntryBuilder('claude-code');
  /** Line uuid -> id of the entry it became or was folded into (null: it sits at a root). */
  private readonly alias = new Map<string, string | null>();
  /** Line uuid -> line number, for picking a title whose `leafUuid` is in this file. */
  private readonly uuidLines = new Map<string, number>();
  private readonly byId = new Map<string, Entry>();
  /** message.id -> the entry that response became, to merge its later split lines into. */
  private readonly responses = new Map<string, Entry>();
  private lastMain: string | null = null;
  private lastSide: string | null = null;
  private readonly summaries: Array<{ title: string; leafUuid?: string }> = [];
  private customTitle: string | undefined;
  private aiTitle: string | undefined;
  private sidechainModel: string | undefined;

  line(value: Json, lineNo: number): void {
    this.builder.lines++;
    const type = str(value.type);
    const uuid = str(value.uuid);
    if (uuid !== undefined && type !== undefined && ENTRY_TYPES.has(type)) {
      // `--resume` can copy history lines; the copy adds nothing the first one did not.
      if (this.uuidLines.has(uuid)) {
        this.builder.ignoredLines++;
        return;
      }
    }
    if (uuid !== undefined && !this.uuidLines.has(uuid)) this.uuidLines.set(uuid, lineNo);
    this.readMeta(value);
    switch (type) {
      case 'user':
        this.user(value, lineNo);
        return;
      case 'assistant':
        this.assistant(value, lineNo);
        return;
      case 'system':
        this.system(value, lineNo);
        return;
      case 'summary': {
        // A title for a leaf (possibly in another file), not a compaction summary.
        const title = str(value.summary);
        if (title) this.summaries.push({ title, leafUuid: str(value.leafUuid) });
        break;
      }
      case 'custom-title':
        this.customTitle = str(value.customTitle) ?? str(value.title) ?? this.customTitle;
        break;
      case 'ai-title':
        this.aiTitle = str(value.aiTitle) ?? str(value.title) ?? this.aiTitle;
        break;
      default:
        // Snapshots, progress, attachments, queue operations, types newer than this importer.
        break;
    }
    this.builder.ignoredLines++;
    this.passThrough(value);
  }

  finish(): ImportResult {
    const title = this.customTitle ?? this.aiTitle ?? this.summaryTitle();
    if (title !== undefined) this.builder.meta.title = title;
    if (this.builder.meta.model === undefined && this.sidechainModel !== undefined) this.builder.meta.model = this.sidechainModel;
    return this.builder.result();
  }

  /** The summary for the latest leaf of this file, else the first (they may all name other files' leaves). */
  private summaryTitle(): string | undefined {
    let best: { title: string; line: number } | undefined;
    for (const summary of this.summaries) {
      const line = summary.leafUuid === undefined ? undefined : this.uuidLines.get(summary.leafUuid);
      if (line !== undefined && (best === undefined || line > best.line)) best = { title: summary.title, line };
    }
    return best?.title ?? this.summaries[0]?.title;
  }

  private readMeta(value: Json): void {
    const meta = this.builder.meta;
    meta.sessionId ??= str(value.sessionId);
    meta.cwd ??= str(value.cwd);
    // The CLI that wrote last is the one whose format the tail of the file follows.
    meta.version = str(value.version) ?? meta.version;
  }

  /**
   * The entry id a `parentUuid` stands for. A parent that never became an entry was aliased to its
   * own parent; an unknown one (a skipped malformed line, a line in another file) chains to the
   * previous entry of the same chain rather than starting a spurious new root.
   */
  private resolveParent(raw: unknown, sidechain: boolean): string | null {
    if (raw === null) return null;
    if (typeof raw === 'string' && this.alias.has(raw)) return this.alias.get(raw) ?? null;
    return sidechain ? this.lastSide : this.lastMain;
  }

  /** A line with a uuid that is not an entry: its children hang from its parent instead. */
  private passThrough(value: Json): void {
    const uuid = str(value.uuid);
    if (uuid === undefined || this.alias.has(uuid)) return;
    this.alias.set(uuid, this.resolveParent(value.parentUuid, value.isSidechain === true));
  }

  private add(draft: EntryDraft & { parentId: string | null }): Entry {
    // Optional fields the line did not have are left out, not stored as `undefined`.
    const clean = Object.fromEntries(Object.entries(draft).filter(([, field]) => field !== undefined)) as EntryDraft;
    const entry = this.builder.push({ ...clean, parentId: draft.parentId });
    this.byId.set(entry.id, entry);
    if (entry.flags?.sidechain) this.lastSide = entry.id;
    else this.lastMain = entry.id;
    return entry;
  }

  private baseFlags(value: Json): EntryFlags | undefined {
    return value.isSidechain === true ? { sidechain: true } : undefined;
  }

  private user(value: Json, lineNo: number): void {
    const message = value.message;
    if (!isRecord(message)) {
      this.builder.issue(lineNo, `expected "message" to be an object on a user line, got ${got(message)}; the line was skipped`);
      this.passThrough(value);
      return;
    }
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      this.builder.issue(lineNo, `expected "message.content" to be a string or an array of content blocks on a user line, got ${got(content)}; the line was skipped`);
      this.passThrough(value);
      return;
    }
    const uuid = str(value.uuid);
    const sidechain = value.isSidechain === true;
    const parentId = this.resolveParent(value.parentUuid, sidechain);
    const timestamp = toEpochMs(value.timestamp);
    const blocks = convertContent(content, lineNo);
    const common = { timestamp, sourceType: 'user', line: lineNo };

    if (value.isCompactSummary === true) {
      const entry = this.add({
        ...common, id: uuid, parentId, role: 'summary', kind: 'compaction', blocks,
        marker: { source: 'claude.compact_summary' }, flags: this.baseFlags(value),
      });
      if (uuid !== undefined) this.alias.set(uuid, entry.id);
      return;
    }

    // `toolUseResult` is deliberately not read: it is the harness's richer copy, not model context.
    const results = blocks.filter((block) => block.type === 'tool_result');
    const rest = blocks.filter((block) => block.type !== 'tool_result');
    let last: Entry | undefined;
    if (results.length > 0) {
      last = this.add({ ...common, id: uuid, parentId, role: 'tool', kind: 'message', blocks: results, flags: this.baseFlags(value) });
    }
    if (rest.length > 0 || results.length === 0) {
      const texts = rest.filter((block) => block.type === 'text');
      const injected = value.isMeta === true || (texts.length > 0 && texts.every((block) => isInjectedText(block.text)));
      const flags: EntryFlags = { ...this.baseFlags(value), ...(injected ? { injected: true } : {}) };
      last = this.add({
        ...common,
        id: last ? `${last.id}:text` : uuid,
        parentId: last ? last.id : parentId,
        role: 'user',
        kind: 'message',
        blocks: rest,
        flags: Object.keys(flags).length > 0 ? flags : undefined,
      });
    }
    if (uuid !== undefined && last) this.alias.set(uuid, last.id);
  }

  private assistant(value: Json, lineNo: number): void {
    const message = value.message;
    if (!isRecord(message)) {
      this.builder.issue(lineNo, `expected "message" to be an object on an assistant line, got ${got(message)}; the line was skipped`);
      this.passThrough(value);
      return;
    }
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      this.builder.issue(lineNo, `expected "message.content" to be an array of content blocks on an assistant line, got ${got(content)}; the line was skipped`);
      this.passThrough(value);
      return;
    }
    const uuid = str(value.uuid);
    const sidechain = value.isSidechain === true;
    const parentId = this.resolveParent(value.parentUuid, sidechain);
    const blocks = convertContent(content, lineNo);
    const rawModel = str(message.model);
    const synthetic = rawModel === '<synthetic>' || value.isApiErrorMessage === true;
    const model = synthetic ? undefined : rawModel;
    const error = value.isApiErrorMessage === true || (value.error !== undefined && value.error !== null);
    const usage = normalizeUsage(message.usage);
    const messageId = str(message.id);

    const open = messageId === undefined ? undefined : this.responses.get(messageId);
    if (open && Boolean(open.flags?.sidechain) === sidechain && this.continues(open, parentId)) {
      open.blocks.push(...blocks);
      open.lineEnd = lineNo;
      // Older CLIs wrote partial streaming usage on the early parts: keep the fullest (last) one.
      if (usage && (open.usage === undefined || usage.output >= open.usage.output)) open.usage = usage;
      if (open.model === undefined && model !== undefined) open.model = model;
      if (error) open.flags = { ...open.flags, error: true };
      if (uuid !== undefined) this.alias.set(uuid, open.id);
      return;
    }

    const flags: EntryFlags = { ...this.baseFlags(value) };
    if (synthetic) flags.synthetic = true;
    if (error) flags.error = true;
    const entry = this.add({
      id: uuid,
      parentId,
      role: 'assistant',
      kind: 'message',
      blocks,
      timestamp: toEpochMs(value.timestamp),
      usage,
      model,
      sourceType: 'assistant',
      line: lineNo,
      flags: Object.keys(flags).length > 0 ? flags : undefined,
    });
    if (uuid !== undefined) this.alias.set(uuid, entry.id);
    if (messageId !== undefined) this.responses.set(messageId, entry);
    if (model !== undefined) {
      if (sidechain) this.sidechainModel ??= model;
      else this.builder.meta.model = model;
    }
  }

  /**
   * Whether a line whose parent is `parentId` continues the response `open`: its parent is the
   * response itself, or is reached from it only through tool results and harness events (the
   * results of parallel calls written between the parts of one response).
   */
  private continues(open: Entry, parentId: string | null): boolean {
    let id = parentId;
    for (let steps = 0; id !== null && steps < MAX_RESPONSE_WALK; steps++) {
      if (id === open.id) return true;
      const entry = this.byId.get(id);
      if (!entry || !(entry.role === 'tool' || entry.kind === 'event')) return false;
      id = entry.parentId;
    }
    return false;
  }

  private system(value: Json, lineNo: number): void {
    const uuid = str(value.uuid);
    const sidechain = value.isSidechain === true;
    const subtype = str(value.subtype);
    const timestamp = toEpochMs(value.timestamp);
    const blocks: Block[] = [{ type: 'text', text: systemText(value) }];
    const sourceType = subtype ? `system/${subtype}` : 'system';
    let entry: Entry;
    if (subtype === 'compact_boundary' || subtype === 'microcompact_boundary') {
      // The boundary cuts the chain (parentUuid null); hang it under the last pre-compaction line
      // so the compacted history stays on the same branch instead of becoming a second root.
      const parentRaw = (value.parentUuid === null || value.parentUuid === undefined) && typeof value.logicalParentUuid === 'string'
        ? value.logicalParentUuid
        : value.parentUuid;
      const metadata = isRecord(value.compactMetadata) ? value.compactMetadata : isRecord(value.microcompactMetadata) ? value.microcompactMetadata : {};
      const marker: CompactionMarker = { source: `claude.${subtype}` };
      const trigger = str(metadata.trigger);
      const tokensBefore = num(metadata.preTokens);
      if (trigger !== undefined) marker.trigger = trigger;
      if (tokensBefore !== undefined) marker.tokensBefore = tokensBefore;
      entry = this.add({
        id: uuid, parentId: this.resolveParent(parentRaw, sidechain), role: 'system', kind: 'compaction', blocks,
        timestamp, sourceType, line: lineNo, marker, flags: this.baseFlags(value),
      });
    } else {
      const flags: EntryFlags = { ...this.baseFlags(value) };
      if (subtype === 'api_error' || value.level === 'error') flags.error = true;
      entry = this.add({
        id: uuid, parentId: this.resolveParent(value.parentUuid, sidechain), role: 'system', kind: 'event', blocks,
        timestamp, sourceType, line: lineNo, flags: Object.keys(flags).length > 0 ? flags : undefined,
      });
    }
    if (uuid !== undefined) this.alias.set(uuid, entry.id);
  }
}

/** A fresh importer for one Claude Code session file. */
export function createClaudeCodeImporter(): LineImporter {
  return new ClaudeCodeImporter();
}
