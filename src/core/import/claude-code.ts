/**
 * Reads Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`, FORMATS.md §1) into
 * journal entries: it follows the `parentUuid` tree through lines that are not entries, merges an
 * API response written as one line per content block, and tags harness-injected text as such.
 * Message content becomes blocks in ./claude-code-content.ts.
 */
import type { Block, CompactionMarker, Entry, EntryFlags } from '../journal/entry.ts';
import { EntryBuilder, describe, isRecord, num, str, toEpochMs, type EntryDraft } from './builder.ts';
import { convertContent, normalizeUsage, systemText } from './claude-code-content.ts';
import { splitSidechainThreads } from './claude-code-threads.ts';
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

class ClaudeCodeImporter implements LineImporter {
  private readonly builder = new EntryBuilder('claude-code');
  /** Line uuid -> id of the entry it became or was folded into (null: it sits at a root). */
  private readonly alias = new Map<string, string | null>();
  /** Line uuid -> line number, for picking a title whose `leafUuid` is in this file. */
  private readonly uuidLines = new Map<string, number>();
  /**
   * Conversation line uuid -> number of the first such line read. Only these make a later line a
   * copy: a line of another or unknown type that happens to carry the uuid (a damaged `type`) does not.
   */
  private readonly entryLines = new Map<string, number>();
  private readonly byId = new Map<string, Entry>();
  /** message.id -> the entry that response became, to merge its later split lines into. */
  private readonly responses = new Map<string, Entry>();
  private lastMain: string | null = null;
  private lastSide: string | null = null;
  private readonly summaries: Array<{ title: string; leafUuid?: string }> = [];
  private customTitle: string | undefined;
  private aiTitle: string | undefined;
  private sidechainModel: string | undefined;
  /** The lines' `agentId` (a subagent's transcript, CLI 2.0 and later). */
  private agentId: string | undefined;

  line(value: Json, lineNo: number): void {
    this.builder.lines++;
    const type = str(value.type);
    const uuid = str(value.uuid);
    const entryType = type !== undefined && ENTRY_TYPES.has(type);
    if (uuid !== undefined && entryType) {
      // `--resume` can copy history lines; the copy adds nothing the first one did not. It is skipped
      // and reported with both line numbers (a hand-edited file may differ between the two).
      const first = this.entryLines.get(uuid);
      if (first !== undefined) {
        this.builder.ignoredLines++;
        this.builder.issue(lineNo, `repeats the uuid ${JSON.stringify(uuid)} of line ${first}; the first line is kept and this one skipped`, 'duplicate');
        return;
      }
    }
    const issuesBefore = this.builder.issues.length;
    this.dispatch(value, type, lineNo);
    // Only a line that was read counts as the first of its uuid: a copy after a skipped, malformed
    // first line is the one kept.
    const skipped = this.builder.issues.slice(issuesBefore).some((issue) => issue.line === lineNo && issue.kind === 'malformed');
    if (uuid === undefined || skipped) return;
    if (!this.uuidLines.has(uuid)) this.uuidLines.set(uuid, lineNo);
    if (entryType && !this.entryLines.has(uuid)) this.entryLines.set(uuid, lineNo);
  }

  private dispatch(value: Json, type: string | undefined, lineNo: number): void {
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
    return splitSidechainThreads(this.builder.result(), this.agentId);
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
    // The branch the session started on: a later line may name a worktree it entered.
    const branch = str(value.gitBranch);
    if (branch) meta.gitBranch ??= branch;
    this.agentId ??= str(value.agentId);
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

    // `toolUseResult` is not model context (the harness's richer copy); only the subagent it names is read.
    const results = blocks.filter((block) => block.type === 'tool_result');
    this.readSubagentCall(value.toolUseResult, results[0]);
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

  /** A subagent call's result names the agent it started (2.1): remembered so its file links to the call. */
  private readSubagentCall(toolUseResult: unknown, result: Block | undefined): void {
    const agentId = isRecord(toolUseResult) ? str(toolUseResult.agentId) : undefined;
    if (agentId === undefined || result?.type !== 'tool_result') return;
    const calls = (this.builder.meta.subagentCalls ??= {});
    calls[agentId] ??= result.callId;
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
