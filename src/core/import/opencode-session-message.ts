/**
 * opencode's newer message store, the `session_message` table of `opencode.db`, turned into the
 * `{info, parts}` messages of the export document, so the one opencode reader (opencode.ts) reads
 * both stores the same way.
 *
 * Each row is one message of opencode's event-sourced session model (`SessionMessage` in
 * `packages/core/src/session/message.ts`): the `type` column (`user`, `assistant`, `synthetic`,
 * `system`, `shell`, `compaction`, `agent-switched`, `model-switched`) and the rest as JSON `data`
 * (`time.created` in ms; an assistant's `content` of `text` / `reasoning` / `tool` items with the
 * step's `tokens`). opencode writes these rows as a session's events happen and fills them once from
 * the `message` / `part` rows of older sessions, keeping each message's id. So a session holding
 * `message` rows is read from them (the fuller record), its `session_message` copies are skipped
 * as duplicates, and rows of its that no `message` row matches are reported (opencode itself calls
 * such sessions "mixed" and does not order them); a session with only `session_message` rows is
 * read from those.
 */
import { isRecord } from './builder.ts';

/** A row of the `session_message` table: ids, type and creation time as columns, the rest as JSON text. */
export interface SessionMessageRow {
  id: string;
  sessionId: string;
  type: string;
  timeCreated: number;
  /** Order within the session where the store keeps it (`seq`), else undefined. */
  seq?: number;
  data: string;
}

/** One message as the export document holds it. */
export interface DocumentMessage {
  info: Record<string, unknown>;
  parts: Array<Record<string, unknown>>;
}

type Problems = Array<{ key: string; message: string }>;

/** Types that hold no conversation content (a switch of agent or model): read and left out. */
const SETTING_TYPES = new Set(['agent-switched', 'model-switched']);

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A tool item's output text: the text items of its `content` (files are named). */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((item) => (isRecord(item) ? (item.type === 'text' ? (str(item.text) ?? '') : `[file: ${str(item.name) ?? str(item.mime) ?? 'attachment'}]`) : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function errorText(error: unknown): string {
  if (isRecord(error)) return str(error.message) ?? str(error.name) ?? JSON.stringify(error);
  return str(error) ?? 'error';
}

function toolPart(item: Record<string, unknown>): Record<string, unknown> {
  const state = isRecord(item.state) ? item.state : {};
  const status = str(state.status) ?? 'pending';
  const input = isRecord(state.input) ? state.input : typeof state.input === 'string' && state.input !== '' ? { raw: state.input } : {};
  const out: Record<string, unknown> = { status, input };
  if (status === 'completed') out.output = contentText(state.content);
  if (status === 'error') out.error = errorText(state.error);
  return { type: 'tool', callID: str(item.id), tool: str(item.name) ?? 'unknown', state: out };
}

function assistantParts(data: Record<string, unknown>): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [{ type: 'step-start' }];
  for (const item of Array.isArray(data.content) ? data.content : []) {
    if (!isRecord(item)) continue;
    if (item.type === 'text') parts.push({ type: 'text', text: str(item.text) ?? '', ...(item.synthetic === true ? { synthetic: true } : {}) });
    else if (item.type === 'reasoning') parts.push({ type: 'reasoning', text: str(item.text) ?? '' });
    else if (item.type === 'tool') parts.push(toolPart(item));
    else parts.push({ type: str(item.type) ?? 'unknown' });
  }
  if (isRecord(data.tokens)) parts.push({ type: 'step-finish', tokens: data.tokens, ...(typeof data.cost === 'number' ? { cost: data.cost } : {}) });
  return parts;
}

function userParts(data: Record<string, unknown>, synthetic: boolean): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [{ type: 'text', text: str(data.text) ?? '', ...(synthetic ? { synthetic: true } : {}) }];
  for (const file of Array.isArray(data.files) ? data.files : []) {
    if (!isRecord(file)) continue;
    const mime = str(file.mime) ?? '';
    const data64 = str(file.data);
    parts.push({ type: 'file', mime, filename: str(file.name) ?? mime, ...(data64 !== undefined ? { url: `data:${mime};base64,${data64}` } : {}) });
  }
  return parts;
}

/** The export-document messages one row stands for (a compaction is a request and its summary), or a reason it has none. */
function messagesOf(row: SessionMessageRow, data: Record<string, unknown>): DocumentMessage[] | string {
  const created = isRecord(data.time) && typeof data.time.created === 'number' ? data.time.created : row.timeCreated;
  const base = { id: row.id, sessionID: row.sessionId };
  switch (row.type) {
    case 'user':
      return [{ info: { ...base, role: 'user', time: { created } }, parts: userParts(data, false) }];
    case 'synthetic':
    case 'system':
      return [{ info: { ...base, role: 'user', time: { created } }, parts: userParts(data, true) }];
    case 'assistant': {
      const model = isRecord(data.model) ? data.model : {};
      const time = isRecord(data.time) ? data.time : {};
      const info: Record<string, unknown> = { ...base, role: 'assistant', time: { created, ...(typeof time.completed === 'number' ? { completed: time.completed } : {}) } };
      if (str(model.id)) info.modelID = model.id;
      if (str(model.providerID)) info.providerID = model.providerID;
      if (isRecord(data.tokens)) info.tokens = data.tokens;
      if (data.error !== undefined) info.error = isRecord(data.error) ? data.error : { name: errorText(data.error) };
      return [{ info, parts: assistantParts(data) }];
    }
    case 'shell': {
      const output = str(data.output) ?? '';
      const state = { status: 'completed', input: { command: str(data.command) ?? '' }, output };
      return [{ info: { ...base, role: 'assistant', time: { created } }, parts: [{ type: 'tool', callID: str(data.callID) ?? row.id, tool: 'bash', state }] }];
    }
    case 'compaction':
      return [
        { info: { ...base, id: `${row.id}.request`, role: 'user', time: { created } }, parts: [{ type: 'compaction', auto: data.reason === 'auto' }] },
        { info: { ...base, role: 'assistant', summary: true, time: { created } }, parts: [{ type: 'text', text: str(data.summary) ?? '' }] },
      ];
    default:
      return SETTING_TYPES.has(row.type) ? [] : `type ${JSON.stringify(row.type)} is not one Foldlab reads (user, assistant, synthetic, system, shell, compaction); left out`;
  }
}

const order = (a: SessionMessageRow, b: SessionMessageRow) =>
  a.timeCreated - b.timeCreated || (a.seq ?? 0) - (b.seq ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The messages of the sessions read from `session_message` rows, by session id. `sessions` are the
 * readable sessions; `legacy` maps a session read from `message` rows to those rows' ids.
 */
export function sessionMessageDocuments(rows: readonly SessionMessageRow[], sessions: ReadonlySet<string>, legacy: ReadonlyMap<string, ReadonlySet<string>>, problems: Problems): Map<string, DocumentMessage[]> {
  const out = new Map<string, DocumentMessage[]>();
  const unmatched = new Map<string, number>();
  for (const row of [...rows].sort(order)) {
    const key = `session_message/${row.id}`;
    if (!sessions.has(row.sessionId)) {
      problems.push({ key, message: `its session ${row.sessionId} is not in the session table; left out` });
      continue;
    }
    const known = legacy.get(row.sessionId);
    if (known) {
      if (!known.has(row.id)) unmatched.set(row.sessionId, (unmatched.get(row.sessionId) ?? 0) + 1);
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(row.data);
    } catch (error) {
      problems.push({ key, message: `data is not valid JSON (${(error as Error).message}); left out` });
      continue;
    }
    if (!isRecord(data)) {
      problems.push({ key, message: `data is ${Array.isArray(data) ? 'an array' : data === null ? 'null' : typeof data}, expected a JSON object; left out` });
      continue;
    }
    const messages = messagesOf(row, data);
    if (typeof messages === 'string') {
      problems.push({ key, message: messages });
      continue;
    }
    if (messages.length === 0) continue;
    const list = out.get(row.sessionId) ?? [];
    list.push(...messages);
    out.set(row.sessionId, list);
  }
  for (const [sessionId, count] of unmatched) {
    problems.push({ key: `session_message/${sessionId}`, message: `${count} row${count === 1 ? '' : 's'} beside the session's message rows and matching none of them; the session is read from its message rows and these are left out` });
  }
  return out;
}
