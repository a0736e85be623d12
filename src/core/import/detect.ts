/**
 * Format detection from content: the first non-empty JSONL line tells the JSONL formats apart
 * (FORMATS.md §0); a whole JSON document is classified by its shape.
 */
import { isRecord, str } from './builder.ts';
import { KIMI_CODE_METADATA } from './kimi-code-parts.ts';
import type { FormatId } from './types.ts';

const CLAUDE_TYPES = new Set([
  'user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment',
  'permission-mode', 'last-prompt', 'custom-title', 'ai-title', 'agent-name', 'agent-setting', 'pr-link',
  'worktree-state', 'bridge-session',
]);
const GEMINI_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state']);
/** Kimi Code wire records that can come first when a wire's metadata line is missing (a session's opening records, a message, a loop event). */
const KIMI_CODE_OPENING = new Set(['context.append_message', 'context.append_loop_event', 'config.update', 'profile.bind', 'runtime.set_binding', 'tools.set_active_tools', 'permission.set_mode', 'turn.prompt', 'llm.request']);
/** A GitHub Copilot CLI event type: dotted, lower case (`session.start`, `user.message`, `tool.execution_complete`). */
const COPILOT_TYPE = /^[a-z_]+(\.[a-z_]+)+$/;

/** The JSONL format a first line belongs to, or undefined if it matches none. */
export function detectJsonlFormat(first: Record<string, unknown>): FormatId | undefined {
  const type = first.type;
  if (type === 'session' && typeof first.id === 'string') return 'pi';
  if (typeof type === 'string' && CODEX_TYPES.has(type) && 'payload' in first) return 'codex';
  if (typeof first.id === 'string' && 'instructions' in first && typeof first.timestamp === 'string') return 'codex';
  if (typeof first.sessionId === 'string' && typeof first.projectHash === 'string') return 'gemini-cli';
  if (isDroidLine(first)) return 'droid';
  // Kimi Code's wire opens with a metadata line that has its `created_at` (kimi-cli's never does), or
  // with one of its flat records when that line is missing.
  if (first.type === 'metadata' && typeof first.protocol_version === 'string') return typeof first.created_at === 'number' ? 'kimi-code' : 'kimi';
  if (typeof type === 'string' && (KIMI_CODE_OPENING.has(type) || KIMI_CODE_METADATA.has(type)) && !('data' in first) && !('payload' in first)) return 'kimi-code';
  // Kimi CLI: a wire record; context.jsonl's own records.
  if (isRecord(first.message) && typeof first.message.type === 'string' && isRecord(first.message.payload) && !('type' in first)) return 'kimi';
  if (typeof first.role === 'string' && first.role.startsWith('_') && ['_system_prompt', '_usage', '_checkpoint'].includes(first.role)) return 'kimi';
  if (typeof type === 'string' && COPILOT_TYPE.test(type) && isRecord(first.data) && ('parentId' in first || typeof first.id === 'string' || type === 'session.start')) return 'copilot-cli';
  // A Gemini CLI file whose metadata line was lost: a message record (no Claude Code uuid or message).
  if (typeof first.id === 'string' && GEMINI_TYPES.has(String(type)) && typeof first.timestamp === 'string' && 'content' in first && !('uuid' in first) && !('message' in first)) return 'gemini-cli';
  // A Cursor agent transcript line: the role beside the message, no type, uuid or session id.
  if ((first.role === 'user' || first.role === 'assistant') && isRecord(first.message) && !('type' in first) && !('uuid' in first) && !('sessionId' in first)) return 'cursor';
  if (typeof type === 'string' && CLAUDE_TYPES.has(type)) {
    if ('uuid' in first || 'sessionId' in first || 'parentUuid' in first || type === 'summary' || type === 'file-history-snapshot') {
      return 'claude-code';
    }
  }
  return undefined;
}

/**
 * A wire metadata line without `created_at` (`{"type": "metadata", "protocol_version"}`): kimi-cli
 * writes it so, and Kimi Code's subagent wires may, so the line after it tells the two apart.
 */
export function isUndecidedOpening(value: unknown): boolean {
  return isRecord(value) && value.type === 'metadata' && typeof value.protocol_version === 'string' && !('created_at' in value);
}

/**
 * Factory Droid: a session store's `session_start` (or, that line lost, its first `message`), or a
 * `droid exec` stream's `system` init (no Claude Code `uuid`, no Claude stream's `mcp_servers`) or
 * first `message` (`role` and `text`).
 */
function isDroidLine(first: Record<string, unknown>): boolean {
  if (first.type === 'session_start') return typeof first.id === 'string';
  const session = typeof first.session_id === 'string' || typeof first.sessionId === 'string';
  if (first.type === 'system') return session && !('uuid' in first) && !('mcp_servers' in first) && !('parentUuid' in first);
  if (first.type !== 'message') return false;
  if (typeof first.role === 'string' && typeof first.text === 'string') return true;
  // A session store whose `session_start` line is damaged or lost: a message line holding Anthropic's
  // `{role, content}`. pi's v3 message lines are alike but always carry the message's own `timestamp`.
  const message = first.message;
  return typeof first.id === 'string' && 'parentId' in first && typeof first.timestamp === 'string' && isRecord(message)
    && (message.role === 'user' || message.role === 'assistant') && Array.isArray(message.content) && !('timestamp' in message);
}

/** Anthropic-only content block types; their presence tells Anthropic from OpenAI messages. */
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'image', 'document', 'server_tool_use', 'web_search_tool_result']);

function looksLikeMessage(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.role === 'string' && 'content' in value;
}

function messagesOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc) && doc.some(looksLikeMessage)) return doc;
  if (isRecord(doc) && Array.isArray(doc.messages)) return doc.messages;
  return undefined;
}

/** Finds the message lists a document holds: a bare array, `{messages}`, or records holding one (`traj`). */
export function findMessageLists(doc: unknown): unknown[][] {
  const direct = messagesOf(doc);
  if (direct) return [direct];
  if (Array.isArray(doc)) {
    const lists: unknown[][] = [];
    for (const record of doc) {
      if (!isRecord(record)) continue;
      for (const key of ['messages', 'traj', 'trajectory', 'conversation', 'history']) {
        const value = record[key];
        if (Array.isArray(value) && value.some(looksLikeMessage)) {
          lists.push(value);
          break;
        }
      }
    }
    return lists;
  }
  if (isRecord(doc)) {
    for (const key of ['traj', 'trajectory', 'conversation', 'history']) {
      const value = doc[key];
      if (Array.isArray(value) && value.some(looksLikeMessage)) return [value];
    }
  }
  return [];
}

/** Is this an OpenHands event (an action or an observation with its source)? */
export function isOpenHandsEvent(value: unknown): boolean {
  return isRecord(value) && typeof value.source === 'string' && (typeof value.action === 'string' || typeof value.observation === 'string');
}

/** The events of a document: a bare array of events, or a record's `history` array. */
export function openHandsEvents(doc: unknown): { events: unknown[]; path: Array<string | number> } | undefined {
  if (Array.isArray(doc) && doc.length > 0 && doc.some(isOpenHandsEvent)) return { events: doc, path: [] };
  if (isRecord(doc) && Array.isArray(doc.history) && doc.history.some(isOpenHandsEvent)) return { events: doc.history, path: ['history'] };
  return undefined;
}

/** An opencode session as `opencode export` prints it: `{info, messages: [{info, parts}]}`. */
export function isOpencodeExport(doc: unknown): boolean {
  return isRecord(doc) && isRecord(doc.info) && Array.isArray(doc.messages) && doc.messages.some((message) => isRecord(message) && isRecord(message.info) && Array.isArray(message.parts));
}

/** A session's messages as opencode's server lists them (`GET /session/:id/message`): `[{info: {sessionID, role}, parts}]`. */
export function isOpencodeMessageList(doc: unknown): boolean {
  return Array.isArray(doc) && doc.some(isOpencodeListedMessage);
}

/** One message of that list: `{info: {sessionID, role}, parts}`. */
export function isOpencodeListedMessage(message: unknown): message is { info: Record<string, unknown>; parts: unknown[] } {
  return isRecord(message) && isRecord(message.info) && typeof message.info.sessionID === 'string' && typeof message.info.role === 'string' && Array.isArray(message.parts);
}

/** A Cline / Roo Code task folder assembled by Foldlab: the history with the panel's messages. */
export function isClineTask(doc: unknown): boolean {
  return isRecord(doc) && Array.isArray(doc.messages) && Array.isArray(doc.ui_messages);
}

/** Cline's history alone: Anthropic messages whose first user text opens with `<task>`. */
export function isClineHistory(doc: unknown): boolean {
  if (!Array.isArray(doc)) return false;
  const first: unknown = doc.find((message) => isRecord(message) && message.role === 'user');
  if (!isRecord(first)) return false;
  const content = first.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((block: unknown) => (isRecord(block) ? (str(block.text) ?? '') : '')).join('\n') : '';
  return text.trimStart().startsWith('<task>');
}

/** A Gemini CLI chat record: `{sessionId, projectHash, messages: [{id, type, ...}]}`. */
function isGeminiChat(doc: unknown): boolean {
  if (!isRecord(doc) || !Array.isArray(doc.messages)) return false;
  if (typeof doc.projectHash === 'string') return true;
  return doc.messages.some((message) => isRecord(message) && (message.type === 'gemini' || message.type === 'user') && typeof message.id === 'string' && !('role' in message));
}

/** The JSON-document format of a parsed document, or undefined if its shape is unknown. */
export function detectDocumentFormat(doc: unknown): FormatId | undefined {
  if (openHandsEvents(doc)) return 'openhands';
  if (isGeminiChat(doc)) return 'gemini-cli';
  if (isOpencodeExport(doc) || isOpencodeMessageList(doc)) return 'opencode';
  if (isRecord(doc) && typeof doc.composerId === 'string' && Array.isArray(doc.conversation)) return 'cursor';
  if (isClineTask(doc) || isClineHistory(doc)) return 'cline';
  const lists = findMessageLists(doc);
  if (lists.length === 0) return undefined;
  if (isRecord(doc) && (typeof doc.system === 'string' || Array.isArray(doc.system))) return 'anthropic';
  for (const list of lists) {
    for (const message of list) {
      if (!isRecord(message)) continue;
      if (message.role === 'tool' || 'tool_calls' in message || 'tool_call_id' in message || message.role === 'system' || message.role === 'developer') {
        return 'openai-chat';
      }
      const content = message.content;
      if (Array.isArray(content) && content.some((block) => isRecord(block) && typeof block.type === 'string' && ANTHROPIC_BLOCKS.has(block.type))) {
        return 'anthropic';
      }
    }
  }
  return 'openai-chat';
}

/** A short description of a document's shape for the "unknown shape" error. */
export function describeShape(doc: unknown): string {
  if (Array.isArray(doc)) {
    const first = doc[0];
    if (doc.length === 0) return 'an empty array';
    if (isRecord(first)) return `an array of ${doc.length} objects whose first has keys ${keyList(first)}`;
    return `an array of ${doc.length} ${typeof first} values`;
  }
  if (isRecord(doc)) return `an object with keys ${keyList(doc)}`;
  return `a bare ${doc === null ? 'null' : typeof doc}`;
}

function keyList(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  const shown = keys.slice(0, 8).map((key) => `"${key}"`).join(', ');
  return keys.length > 8 ? `${shown} and ${keys.length - 8} more` : shown || '(none)';
}
