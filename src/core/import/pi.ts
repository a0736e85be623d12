/**
 * pi coding agent session importer (FORMATS.md §3). v1 files are linear (no ids; compaction points
 * at `firstKeptEntryIndex`); v2/v3 files are a tree of `id`/`parentId` entries.
 *
 * Decisions:
 * - The header becomes `meta` (sessionId, cwd, format version, v1 `modelId`), not an entry.
 * - `message` lines become entries by role: user, assistant (usage normalized so `input` includes
 *   cache reads and writes; stopReason aborted/error become flags; `errorMessage` becomes a
 *   synthetic text block only when the response has no content), toolResult (role `tool`),
 *   bashExecution (the user's `!cmd`: a user message `$ command\n<output>`, or an `event` when
 *   excluded from context), custom/hookMessage (injected user text), branchSummary /
 *   compactionSummary (summary markers).
 * - `compaction` and `branch_summary` lines become compaction markers; `custom_message` an
 *   injected user message. `model_change`, `thinking_level_change`, `custom`, `label` and
 *   `session_info` (its name becomes `meta.title`) are counted as ignored lines.
 * - Tree files keep their ids. A `parentId` naming a line that is not an entry (a model_change, …)
 *   is resolved to that line's nearest entry ancestor. `firstKeptEntryId` naming such a line is
 *   resolved to the first entry after it on the compaction's path (v1: the index, header
 *   included, is converted the same way), so it always names an entry when one was kept.
 * - `meta.model` is the v1 header's `modelId`, else the first `model_change`. `lines` counts the
 *   object lines read; `ignoredLines` those that are not entries (the header included).
 */
import type { Block, CompactionMarker, EntryFlags, ImageBlock, TextBlock, ToolCallBlock, Usage } from '../journal/entry.ts';
import { base64Bytes, EntryBuilder, isRecord, num, parseJsonLoose, str, toEpochMs, type EntryDraft } from './builder.ts';
import type { ImportResult, LineImporter } from './types.ts';

export function createPiImporter(): LineImporter {
  return new PiImporter();
}

/** A compaction whose `firstKeptEntryId` is resolved once the whole file is read. */
interface PendingKept {
  marker: CompactionMarker;
  /** Raw id of the compaction line (tree files; its parent chain is known only there). */
  rawId: string | undefined;
  /** Raw `firstKeptEntryId` (tree files). */
  keptId: string | undefined;
  /** `firstKeptEntryIndex` (v1 files). */
  keptIndex: number | undefined;
}

class PiImporter implements LineImporter {
  private readonly builder = new EntryBuilder('pi');
  private sawHeader = false;
  /** Entry id (or undefined for a non-entry line) of every line, in file order (header included). */
  private readonly positions: Array<string | undefined> = [];
  /** Raw id -> position in `positions`. */
  private readonly rawPosition = new Map<string, number>();
  /** Raw id -> raw parentId, for every tree line. */
  private readonly rawParent = new Map<string, string | null>();
  /** Raw id -> entry id of the entry it became. */
  private readonly entryOf = new Map<string, string>();
  /** Raw id of a non-entry line -> its nearest entry ancestor (null at a root). */
  private readonly alias = new Map<string, string | null>();
  private readonly pendingKept: PendingKept[] = [];

  line(value: Record<string, unknown>, lineNo: number): void {
    this.builder.lines++;
    const position = this.positions.length;
    this.positions.push(undefined);
    const rawId = str(value.id);
    const tree = rawId !== undefined && 'parentId' in value && value.type !== 'session';
    let parentId: string | null | undefined;
    if (tree) {
      const rawParent = str(value.parentId) ?? null;
      this.rawParent.set(rawId, rawParent);
      this.rawPosition.set(rawId, position);
      parentId = this.resolveParent(rawParent, lineNo);
    }
    const draft = this.draft(value, lineNo);
    if (!draft) {
      this.builder.ignoredLines++;
      if (tree) this.alias.set(rawId, parentId ?? null);
      return;
    }
    if (tree) {
      draft.id = rawId;
      draft.parentId = parentId ?? null;
    }
    const entry = this.builder.push(draft);
    this.positions[position] = entry.id;
    if (tree) this.entryOf.set(rawId, entry.id);
  }

  finish(): ImportResult {
    for (const pending of this.pendingKept) {
      const kept = this.resolveKept(pending);
      if (kept !== undefined) pending.marker.firstKeptEntryId = kept;
    }
    return this.builder.result();
  }

  private resolveParent(rawParent: string | null, lineNo: number): string | null {
    if (rawParent === null) return null;
    const entry = this.entryOf.get(rawParent);
    if (entry !== undefined) return entry;
    const alias = this.alias.get(rawParent);
    if (alias !== undefined) return alias;
    this.builder.issue(lineNo, `parentId "${rawParent}" names no earlier line; the entry was made a root`);
    return null;
  }

  /** The entry a line becomes, or undefined for lines that are not entries. */
  private draft(value: Record<string, unknown>, lineNo: number): EntryDraft | undefined {
    const timestamp = toEpochMs(value.timestamp);
    switch (value.type) {
      case 'session':
        this.header(value);
        return undefined;
      case 'message': {
        const message = value.message;
        if (!isRecord(message)) {
          this.builder.issue(lineNo, '"message" line has no message object; it was skipped');
          return undefined;
        }
        return this.message(message, lineNo, timestamp ?? toEpochMs(message.timestamp));
      }
      case 'compaction': {
        const marker: CompactionMarker = { source: 'pi.compaction' };
        const tokensBefore = num(value.tokensBefore);
        if (tokensBefore !== undefined) marker.tokensBefore = tokensBefore;
        addFiles(marker, value.details);
        this.pendingKept.push({ marker, rawId: str(value.id), keptId: str(value.firstKeptEntryId), keptIndex: num(value.firstKeptEntryIndex) });
        return summaryDraft(str(value.summary) ?? '', marker, 'compaction', lineNo, timestamp);
      }
      case 'branch_summary': {
        const marker: CompactionMarker = { source: 'pi.branch_summary' };
        const fromId = str(value.fromId);
        if (fromId !== undefined) marker.fromId = this.entryOf.get(fromId) ?? this.alias.get(fromId) ?? fromId;
        addFiles(marker, value.details);
        return summaryDraft(str(value.summary) ?? '', marker, 'branch_summary', lineNo, timestamp);
      }
      case 'custom_message':
        return optional({ role: 'user', kind: 'message', blocks: contentBlocks(value.content), sourceType: 'custom_message', line: lineNo }, { timestamp, flags: { injected: true } });
      case 'model_change': {
        const model = str(value.modelId);
        if (model) this.builder.meta.model ??= model;
        return undefined;
      }
      case 'session_info': {
        const title = str(value.name);
        if (title) this.builder.meta.title = title;
        return undefined;
      }
      default:
        return undefined; // thinking_level_change, custom, label, unknown types
    }
  }

  private header(value: Record<string, unknown>): void {
    if (this.sawHeader) return;
    this.sawHeader = true;
    const meta = this.builder.meta;
    const id = str(value.id);
    if (id) meta.sessionId = id;
    const cwd = str(value.cwd);
    if (cwd) meta.cwd = cwd;
    meta.version = String(num(value.version) ?? 1);
    const created = toEpochMs(value.timestamp);
    if (created !== undefined) meta.createdAt = created;
    const model = str(value.modelId);
    if (model) meta.model = model;
  }

  private message(m: Record<string, unknown>, lineNo: number, timestamp: number | undefined): EntryDraft | undefined {
    const role = str(m.role);
    const sourceType = `message/${role ?? '?'}`;
    switch (role) {
      case 'user':
        return optional({ role: 'user', kind: 'message', blocks: contentBlocks(m.content), sourceType, line: lineNo }, { timestamp });
      case 'assistant':
        return assistantDraft(m, sourceType, lineNo, timestamp);
      case 'toolResult': {
        const block: Block = {
          type: 'tool_result',
          callId: str(m.toolCallId) ?? `l${lineNo}`,
          content: contentBlocks(m.content).filter((part): part is TextBlock | ImageBlock => part.type === 'text' || part.type === 'image'),
          isError: m.isError === true,
        };
        const toolName = str(m.toolName);
        if (toolName !== undefined) block.toolName = toolName;
        return optional({ role: 'tool', kind: 'message', blocks: [block], sourceType, line: lineNo }, { timestamp });
      }
      case 'bashExecution': {
        let text = `$ ${str(m.command) ?? ''}\n${str(m.output) ?? ''}`;
        const exitCode = num(m.exitCode);
        if (m.cancelled === true) text += '\n(command cancelled)';
        else if (exitCode !== undefined && exitCode !== 0) text += `\n(exit code ${exitCode})`;
        const flags: EntryFlags = {};
        if (m.cancelled === true) flags.aborted = true;
        return optional(
          { role: 'user', kind: m.excludeFromContext === true ? 'event' : 'message', blocks: [{ type: 'text', text }], sourceType, line: lineNo },
          { timestamp, flags: Object.keys(flags).length > 0 ? flags : undefined },
        );
      }
      case 'custom':
      case 'hookMessage':
        return optional({ role: 'user', kind: 'message', blocks: contentBlocks(m.content), sourceType, line: lineNo }, { timestamp, flags: { injected: true } });
      case 'branchSummary': {
        const marker: CompactionMarker = { source: 'pi.branchSummary' };
        const fromId = str(m.fromId);
        if (fromId !== undefined) marker.fromId = fromId;
        return summaryDraft(str(m.summary) ?? '', marker, sourceType, lineNo, timestamp);
      }
      case 'compactionSummary': {
        const marker: CompactionMarker = { source: 'pi.compactionSummary' };
        const tokensBefore = num(m.tokensBefore);
        if (tokensBefore !== undefined) marker.tokensBefore = tokensBefore;
        return summaryDraft(str(m.summary) ?? '', marker, sourceType, lineNo, timestamp);
      }
      default:
        return undefined;
    }
  }

  /** The entry id `firstKeptEntryId` / `firstKeptEntryIndex` stands for, always an entry. */
  private resolveKept(pending: PendingKept): string | undefined {
    if (pending.keptIndex !== undefined) return this.firstEntryFrom(pending.keptIndex);
    const kept = pending.keptId;
    if (kept === undefined) return undefined;
    const direct = this.entryOf.get(kept);
    if (direct !== undefined) return direct;
    // A non-entry line: the first entry below it on the path from the root to the compaction.
    if (pending.rawId !== undefined) {
      const below: string[] = [];
      const seen = new Set<string>();
      let current = this.rawParent.get(pending.rawId) ?? null;
      while (current !== null && !seen.has(current)) {
        if (current === kept) {
          for (let i = below.length - 1; i >= 0; i--) {
            const id = this.entryOf.get(below[i] ?? '');
            if (id !== undefined) return id;
          }
          return undefined;
        }
        seen.add(current);
        below.push(current);
        current = this.rawParent.get(current) ?? null;
      }
    }
    const position = this.rawPosition.get(kept);
    return position === undefined ? undefined : this.firstEntryFrom(position);
  }

  private firstEntryFrom(position: number): string | undefined {
    for (let i = Math.max(0, position); i < this.positions.length; i++) {
      const id = this.positions[i];
      if (id !== undefined) return id;
    }
    return undefined;
  }
}

function assistantDraft(m: Record<string, unknown>, sourceType: string, lineNo: number, timestamp: number | undefined): EntryDraft {
  const blocks = contentBlocks(m.content);
  const flags: EntryFlags = {};
  const stop = m.stopReason;
  if (stop === 'aborted') flags.aborted = true;
  if (stop === 'error') flags.error = true;
  const errorMessage = str(m.errorMessage);
  if (blocks.length === 0 && errorMessage) {
    blocks.push({ type: 'text', text: errorMessage });
    flags.synthetic = true;
  }
  const draft = optional(
    { role: 'assistant', kind: 'message', blocks, sourceType, line: lineNo },
    { timestamp, model: str(m.model), flags: Object.keys(flags).length > 0 ? flags : undefined },
  );
  const usage = m.usage;
  if (isRecord(usage)) {
    const cacheRead = num(usage.cacheRead);
    const cacheWrite = num(usage.cacheWrite);
    const normalized: Usage = {
      input: (num(usage.input) ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0),
      output: num(usage.output) ?? 0,
    };
    if (cacheRead !== undefined) normalized.cacheRead = cacheRead;
    if (cacheWrite !== undefined) normalized.cacheWrite = cacheWrite;
    draft.usage = normalized;
  }
  return draft;
}

function summaryDraft(text: string, marker: CompactionMarker, sourceType: string, lineNo: number, timestamp: number | undefined): EntryDraft {
  return optional({ role: 'summary', kind: 'compaction', blocks: [{ type: 'text', text }], sourceType, line: lineNo, marker }, { timestamp });
}

function addFiles(marker: CompactionMarker, details: unknown): void {
  if (!isRecord(details)) return;
  const read = stringList(details.readFiles);
  if (read) marker.readFiles = read;
  const modified = stringList(details.modifiedFiles);
  if (modified) marker.modifiedFiles = modified;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

/** Blocks of a pi content value: a string, or text / thinking / toolCall / image parts. */
function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    switch (part.type) {
      case 'text':
        blocks.push({ type: 'text', text: str(part.text) ?? '' });
        break;
      case 'thinking': {
        const block: Block = { type: 'thinking', text: str(part.thinking) ?? '' };
        const signature = str(part.thinkingSignature) ?? str(part.signature);
        if (signature !== undefined) block.signature = signature;
        if (part.redacted === true) block.redacted = true;
        blocks.push(block);
        break;
      }
      case 'toolCall': {
        const args = part.arguments;
        const block: ToolCallBlock = {
          type: 'tool_call',
          callId: str(part.id) ?? '',
          name: str(part.name) ?? '',
          input: typeof args === 'string' ? parseJsonLoose(args) : (args ?? {}),
        };
        blocks.push(block);
        break;
      }
      case 'image': {
        const data = str(part.data);
        blocks.push({ type: 'image', mediaType: str(part.mimeType) ?? 'image', bytes: data ? base64Bytes(data) : 0, source: 'base64' });
        break;
      }
      default: {
        const text = str(part.text);
        if (text !== undefined) blocks.push({ type: 'text', text });
      }
    }
  }
  return blocks;
}

/** Adds the optional fields that are defined, so entries carry no `undefined` keys. */
function optional(
  draft: EntryDraft,
  extra: { timestamp?: number | undefined; model?: string | undefined; flags?: EntryFlags | undefined },
): EntryDraft {
  if (extra.timestamp !== undefined) draft.timestamp = extra.timestamp;
  if (extra.model !== undefined) draft.model = extra.model;
  if (extra.flags !== undefined) draft.flags = extra.flags;
  return draft;
}
