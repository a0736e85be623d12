/**
 * Writes a journal as a pi coding agent session file, format version 3 (FORMATS.md §3): the
 * `session` header, then one line per entry with its own `id` and `parentId`, so the tree, its
 * branches, compactions (`compaction`: summary, firstKeptEntryId, tokensBefore) and branch
 * summaries (`branch_summary`: fromId) survive, and Foldlab's pi importer reads back the same
 * entries, roles, tree and tool-call links.
 *
 * What pi's format cannot hold is said in `notes`: image bytes (never kept) become a text
 * placeholder; `event` and `system` entries (not model context) are written as pi `custom` lines,
 * which pi and the importer do not treat as messages; a tool entry holding several results is
 * written as one `toolResult` line per result.
 */
import type { Block, Entry, ImageBlock, TextBlock, ToolCallBlock, ToolResultBlock, Usage } from '../journal/entry.ts';
import { imagePlaceholder } from '../export/common.ts';

/** The session format version written in the header. */
export const PI_SESSION_VERSION = 3;

export interface PiSessionMeta {
  /** Session id in the header. Default: 'foldlab-session'. */
  sessionId?: string;
  /** Working directory in the header (the folder the session read). Default '/'. */
  cwd?: string;
  /** Session creation time, epoch ms; also the time of entries that recorded none. Default 0. */
  createdAt?: number;
  /** Written as the first `model_change` line and on assistant messages that name no model. */
  model?: string;
  /** `provider` of the model_change line and of assistant messages. Default 'foldlab'. */
  provider?: string;
  /** `api` of assistant messages ('openai-completions', 'anthropic-messages', ...). Default 'openai-completions'. */
  api?: string;
  /** Session name (a `session_info` line at the end). */
  title?: string;
}

export interface PiSessionExport {
  /** The JSONL text, one JSON object per line, ending with a newline. */
  text: string;
  /** Lines written (header included). */
  lines: number;
  /** What the format could not hold as it was, and how it was written instead. */
  notes: string[];
}

/** The journal as pi session JSONL v3 (see `exportPiSession` for the notes). */
export function toPiSessionJsonl(entries: readonly Entry[], meta: PiSessionMeta = {}): string {
  return exportPiSession(entries, meta).text;
}

/** The journal as pi session JSONL v3, with notes on what was written differently. */
export function exportPiSession(entries: readonly Entry[], meta: PiSessionMeta = {}): PiSessionExport {
  const provider = meta.provider ?? 'foldlab';
  const api = meta.api ?? 'openai-completions';
  const ids = new Set(entries.map((entry) => entry.id));
  const fresh = (base: string): string => {
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };
  const out: Array<Record<string, unknown>> = [];
  let lastTime = meta.createdAt ?? 0;
  const iso = (ms: number | undefined): string => {
    if (ms !== undefined && Number.isFinite(ms)) lastTime = ms;
    return new Date(lastTime).toISOString();
  };
  const counts = { images: 0, custom: 0, split: 0, roots: 0 };

  out.push({ type: 'session', version: PI_SESSION_VERSION, id: meta.sessionId ?? 'foldlab-session', timestamp: iso(meta.createdAt), cwd: meta.cwd ?? '/' });
  // pi starts a session with its model; root entries hang below it, so the file has one root.
  let rootId: string | null = null;
  if (meta.model) {
    rootId = fresh('model');
    out.push({ type: 'model_change', id: rootId, parentId: null, timestamp: iso(meta.createdAt), provider, modelId: meta.model });
  }

  /** Tool name of each call id, for results that do not record theirs. */
  const callNames = new Map<string, string>();
  /** The last line id each journal entry became (a split tool entry becomes several lines). */
  const lineOf = new Map<string, string>();
  /** The first line id of each split tool entry (where a kept range starts). */
  const firstLineOf = new Map<string, string>();

  for (const entry of entries) {
    const parentId = entry.parentId === null ? rootId : (lineOf.get(entry.parentId) ?? entry.parentId);
    const timestamp = iso(entry.timestamp);
    const base = { id: entry.id, parentId, timestamp };
    lineOf.set(entry.id, entry.id);
    const ms = lastTime;

    if (entry.kind === 'event' || entry.role === 'system') {
      counts.custom++;
      out.push({ type: 'custom', ...base, customType: `foldlab.${entry.kind === 'event' ? 'event' : 'system'}`, data: { role: entry.role, blocks: entry.blocks } });
      continue;
    }
    if (entry.kind === 'compaction' || entry.role === 'summary') {
      out.push(summaryLine(entry, base, (id) => lineOf.get(id) ?? id, (id) => firstLineOf.get(id) ?? id, ms));
      continue;
    }
    switch (entry.role) {
      case 'user': {
        const content = userContent(entry.blocks, counts);
        if (entry.flags?.injected) out.push({ type: 'custom_message', ...base, customType: 'foldlab', content, display: true });
        else out.push({ type: 'message', ...base, message: { role: 'user', content, timestamp: ms } });
        break;
      }
      case 'assistant':
        for (const block of entry.blocks) if (block.type === 'tool_call') callNames.set(block.callId, block.name);
        out.push({ type: 'message', ...base, message: assistantMessage(entry, counts, { provider, api, model: entry.model ?? meta.model ?? 'unknown', timestamp: ms }) });
        break;
      case 'tool': {
        const results = entry.blocks.filter((block): block is ToolResultBlock => block.type === 'tool_result');
        const extra = userContent(entry.blocks.filter((block) => block.type !== 'tool_result'), counts);
        if (results.length === 0) {
          out.push({ type: 'message', ...base, message: { role: 'toolResult', toolCallId: '', toolName: '', content: extra, isError: false, timestamp: ms } });
          break;
        }
        if (results.length > 1) counts.split++;
        let parent = parentId;
        results.forEach((result, i) => {
          const id = i === results.length - 1 ? entry.id : fresh(`${entry.id}-r${i + 1}`);
          if (i === 0) firstLineOf.set(entry.id, id);
          const content = [...userContent(result.content, counts), ...(i === 0 ? extra : [])];
          out.push({
            type: 'message', id, parentId: parent, timestamp,
            message: { role: 'toolResult', toolCallId: result.callId, toolName: result.toolName ?? callNames.get(result.callId) ?? '', content, isError: result.isError, timestamp: ms },
          });
          parent = id;
        });
        break;
      }
    }
  }

  const last = entries[entries.length - 1];
  if (meta.title) out.push({ type: 'session_info', id: fresh('info'), parentId: last ? (lineOf.get(last.id) ?? last.id) : rootId, timestamp: iso(undefined), name: meta.title });

  const notes: string[] = [];
  if (counts.images > 0) notes.push(`Wrote ${counts.images} image(s) as text placeholders: the journal never keeps image data, and a pi image part needs it.`);
  if (counts.custom > 0) notes.push(`Wrote ${counts.custom} event or system entr${counts.custom === 1 ? 'y' : 'ies'} as pi "custom" lines: they are not model context, so pi and the importer do not read them as messages.`);
  if (counts.split > 0) notes.push(`Split ${counts.split} tool entr${counts.split === 1 ? 'y' : 'ies'} holding several results into one toolResult line per result, as pi records them.`);
  return { text: out.map((line) => JSON.stringify(line)).join('\n') + '\n', lines: out.length, notes };
}

function summaryLine(
  entry: Entry,
  base: { id: string; parentId: string | null; timestamp: string },
  lineId: (id: string) => string,
  firstLineId: (id: string) => string,
  ms: number,
): Record<string, unknown> {
  const summary = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
  const marker = entry.marker;
  const details = marker && (marker.readFiles || marker.modifiedFiles) ? { details: { readFiles: marker.readFiles ?? [], modifiedFiles: marker.modifiedFiles ?? [] } } : {};
  switch (marker?.source) {
    case 'pi.branch_summary':
      return { type: 'branch_summary', ...base, fromId: marker.fromId !== undefined ? lineId(marker.fromId) : (base.parentId ?? base.id), summary, ...details, fromHook: false };
    case 'pi.branchSummary':
      return { type: 'message', ...base, message: { role: 'branchSummary', summary, fromId: marker.fromId ?? '', timestamp: ms } };
    case 'pi.compactionSummary':
      return { type: 'message', ...base, message: { role: 'compactionSummary', summary, tokensBefore: marker.tokensBefore ?? 0, timestamp: ms } };
    default:
      return {
        type: 'compaction', ...base, summary,
        ...(marker?.firstKeptEntryId !== undefined ? { firstKeptEntryId: firstLineId(marker.firstKeptEntryId) } : {}),
        tokensBefore: marker?.tokensBefore ?? 0, ...details, fromHook: false,
      };
  }
}

type PiPart = { type: 'text'; text: string } | { type: 'thinking'; thinking: string; thinkingSignature?: string; redacted?: true } | { type: 'toolCall'; id: string; name: string; arguments: unknown };

/** Text parts of a user or tool message (images as placeholders, other blocks as their text). */
function userContent(blocks: ReadonlyArray<Block | TextBlock | ImageBlock>, counts: { images: number }): Array<{ type: 'text'; text: string }> {
  const parts: Array<{ type: 'text'; text: string }> = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') {
      counts.images++;
      parts.push({ type: 'text', text: imagePlaceholder(block) });
    } else if (block.type === 'thinking') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_result') parts.push(...userContent(block.content, counts));
    else parts.push({ type: 'text', text: `${block.name}(${JSON.stringify(block.input) ?? ''})` });
  }
  return parts;
}

function assistantMessage(entry: Entry, counts: { images: number }, at: { provider: string; api: string; model: string; timestamp: number }): Record<string, unknown> {
  const content: PiPart[] = [];
  let calls = 0;
  for (const block of entry.blocks) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'thinking': {
        const part: PiPart = { type: 'thinking', thinking: block.text };
        if (block.signature !== undefined) part.thinkingSignature = block.signature;
        if (block.redacted) part.redacted = true;
        content.push(part);
        break;
      }
      case 'tool_call':
        calls++;
        content.push(toolCallPart(block));
        break;
      case 'image':
        counts.images++;
        content.push({ type: 'text', text: imagePlaceholder(block) });
        break;
      case 'tool_result':
        content.push(...userContent(block.content, counts));
        break;
    }
  }
  const flags = entry.flags ?? {};
  const message: Record<string, unknown> = { role: 'assistant', content, api: at.api, provider: at.provider, model: at.model, usage: piUsage(entry.usage) };
  message.stopReason = flags.aborted ? 'aborted' : flags.error ? 'error' : calls > 0 ? 'toolUse' : 'stop';
  // A synthetic error text is pi's `errorMessage` on an empty reply, as pi writes it.
  if (flags.synthetic && content.length === 1 && content[0]?.type === 'text') {
    message.errorMessage = content[0].text;
    message.content = [];
  }
  message.timestamp = at.timestamp;
  return message;
}

function toolCallPart(block: ToolCallBlock): PiPart {
  return { type: 'toolCall', id: block.callId, name: block.name, arguments: block.input ?? {} };
}

/** pi's usage: `input` without cache reads and writes (the journal's includes them). */
function piUsage(usage: Usage | undefined): Record<string, unknown> {
  const cacheRead = usage?.cacheRead ?? 0;
  const cacheWrite = usage?.cacheWrite ?? 0;
  const input = Math.max(0, (usage?.input ?? 0) - cacheRead - cacheWrite);
  const output = usage?.output ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}
