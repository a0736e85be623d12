/**
 * Cursor's chat store read as conversations: the key/value rows of a `state.vscdb` (SQLite; read by
 * src/sqlite/, this module sees only the rows) grouped into one document per composer (Cursor's
 * word for a conversation). A composer is `composerData:<composerId>`; its messages ("bubbles") are
 * listed in order by `fullConversationHeadersOnly` and stored at `bubbleId:<composerId>:<bubbleId>`,
 * or (older versions) inline in `conversation`. Each document is a composer in that older inline
 * form, which the `cursor` document importer reads (cursor-composer.ts). Older Cursor versions
 * kept the chat panel's tabs in each workspace's `state.vscdb`, one `ItemTable` value
 * `workbench.panel.aichat.view.aichat.chatdata` = `{tabs: [{tabId, chatTitle, bubbles: [{type:
 * "user" | "ai", text}]}]}`: each tab becomes a conversation the same way (its bubbles as user and
 * assistant messages).
 *
 * Only the fields an import reads are copied: the store also holds editor state, file contents,
 * encryption keys and (in `ItemTable`) sign-in tokens, none of which may leave the file.
 */
import { isRecord, num, str } from './builder.ts';

/** A row of `cursorDiskKV` or `ItemTable`, its value decoded as text. */
export interface KeyValueRow {
  key: string;
  value: string;
}

export interface CursorComposer {
  composerId: string;
  /** The composer's name, else its first request, else its id. */
  name: string;
  /** The composer that started this one (listed in its `subComposerIds`). */
  parentId?: string;
  document: CursorComposerDocument;
}

/** What Foldlab keeps of a composer: its metadata and its bubbles inline, in order. */
export interface CursorComposerDocument {
  composerId: string;
  name?: string;
  createdAt?: number;
  lastUpdatedAt?: number;
  modelName?: string;
  /** Set by Foldlab when another composer lists this one in `subComposerIds`. */
  parentComposerId?: string;
  subComposerIds?: string[];
  conversation: Array<Record<string, unknown>>;
}

export interface CursorStore {
  composers: CursorComposer[];
  /** Rows that could not be read, and bubbles a composer lists but the store lacks. */
  problems: Array<{ key: string; message: string }>;
  /** Composers with no message at all (opened and closed without sending), left out. */
  empty: number;
}

/** The `ItemTable` key of the older chat panel's tabs. */
export const CURSOR_CHAT_TABS_KEY = 'workbench.panel.aichat.view.aichat.chatdata';

/** The older chat tabs as composers: one per tab with bubbles, `user` / `ai` bubbles as Cursor's types 1 / 2. */
function chatTabs(value: Record<string, unknown>, problems: CursorStore['problems']): Array<{ composerId: string; composer: Record<string, unknown> }> {
  if (!Array.isArray(value.tabs)) {
    problems.push({ key: CURSOR_CHAT_TABS_KEY, message: 'has no "tabs" list; left out' });
    return [];
  }
  return value.tabs.flatMap((tab: unknown, i) => {
    const tabId = isRecord(tab) ? str(tab.tabId) : undefined;
    if (!isRecord(tab) || tabId === undefined) {
      problems.push({ key: CURSOR_CHAT_TABS_KEY, message: `tabs[${i}] has no string "tabId"; left out` });
      return [];
    }
    const bubbles = Array.isArray(tab.bubbles) ? tab.bubbles : [];
    const conversation = bubbles.flatMap((bubble: unknown, j) => {
      const type = isRecord(bubble) ? bubble.type : undefined;
      if (!isRecord(bubble) || (type !== 'user' && type !== 'ai')) {
        problems.push({ key: CURSOR_CHAT_TABS_KEY, message: `tabs[${i}].bubbles[${j}] is not a "user" or "ai" bubble (type ${JSON.stringify(type)}); left out` });
        return [];
      }
      const text = str(bubble.text) ?? str(bubble.rawText) ?? '';
      return [{ ...(str(bubble.id) ? { bubbleId: str(bubble.id) } : {}), type: type === 'user' ? 1 : 2, text }];
    });
    const title = str(tab.chatTitle);
    const lastSend = num(tab.lastSendTime);
    return [{ composerId: tabId, composer: { conversation, ...(title ? { name: title } : {}), ...(lastSend !== undefined ? { lastUpdatedAt: lastSend } : {}) } }];
  });
}

/** The first 16 bytes of every SQLite 3 database file. */
const SQLITE_HEADER = 'SQLite format 3\0';

/** Do these bytes (a file's start) open an SQLite database? */
export function isSqliteHeader(bytes: Uint8Array): boolean {
  if (bytes.byteLength < SQLITE_HEADER.length) return false;
  for (let i = 0; i < SQLITE_HEADER.length; i++) if (bytes[i] !== SQLITE_HEADER.charCodeAt(i)) return false;
  return true;
}

/** Bubble fields an import reads; everything else (context, code blocks, diffs, file states) is left. */
const BUBBLE_FIELDS = ['bubbleId', 'type', 'text', 'thinking', 'allThinkingBlocks', 'toolFormerData', 'tokenCount', 'createdAt', 'modelInfo', 'images', 'capabilityType', 'isAgentic'] as const;
const TOOL_FIELDS = ['tool', 'name', 'toolCallId', 'status', 'rawArgs', 'params', 'result', 'error'] as const;

function pick<K extends string>(record: Record<string, unknown>, keys: readonly K[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

function bubbleOf(value: Record<string, unknown>): Record<string, unknown> {
  const bubble = pick(value, BUBBLE_FIELDS);
  if (isRecord(value.toolFormerData)) bubble.toolFormerData = pick(value.toolFormerData, TOOL_FIELDS);
  if (Array.isArray(value.images)) bubble.images = value.images.map((image: unknown) => (isRecord(image) ? pick(image, ['mimeType', 'type']) : {}));
  return bubble;
}

function parse(row: KeyValueRow, problems: CursorStore['problems']): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(row.value);
  } catch (error) {
    problems.push({ key: row.key, message: `not valid JSON (${(error as Error).message})` });
    return undefined;
  }
  if (value === null) return undefined; // Cursor leaves a deleted bubble as null.
  if (!isRecord(value)) {
    problems.push({ key: row.key, message: `expected a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}` });
    return undefined;
  }
  return value;
}

/** Groups the store's composer and bubble rows into one document per composer with messages. */
export function readCursorStore(rows: Iterable<KeyValueRow>): CursorStore {
  const problems: CursorStore['problems'] = [];
  const composers = new Map<string, Record<string, unknown>>();
  const bubbles = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    if (row.key.startsWith('composerData:')) {
      const value = parse(row, problems);
      if (value) composers.set(row.key.slice('composerData:'.length), value);
    } else if (row.key.startsWith('bubbleId:')) {
      const value = parse(row, problems);
      if (value) bubbles.set(row.key.slice('bubbleId:'.length), value);
    } else if (row.key === CURSOR_CHAT_TABS_KEY) {
      const value = parse(row, problems);
      if (value) for (const { composerId, composer } of chatTabs(value, problems)) composers.set(composerId, composer);
    }
  }
  const parents = new Map<string, string>();
  for (const [composerId, composer] of composers) {
    if (!Array.isArray(composer.subComposerIds)) continue;
    for (const child of composer.subComposerIds) if (typeof child === 'string' && child !== composerId) parents.set(child, composerId);
  }
  const out: CursorComposer[] = [];
  let empty = 0;
  for (const [composerId, composer] of composers) {
    const conversation: Array<Record<string, unknown>> = [];
    if (Array.isArray(composer.fullConversationHeadersOnly) && composer.fullConversationHeadersOnly.length > 0) {
      composer.fullConversationHeadersOnly.forEach((header: unknown, i) => {
        const bubbleId = isRecord(header) ? str(header.bubbleId) : undefined;
        if (bubbleId === undefined) {
          problems.push({ key: `composerData:${composerId}`, message: `fullConversationHeadersOnly[${i}] has no string "bubbleId"; skipped` });
          return;
        }
        const bubble = bubbles.get(`${composerId}:${bubbleId}`);
        if (bubble) conversation.push(bubbleOf(bubble));
        else problems.push({ key: `bubbleId:${composerId}:${bubbleId}`, message: `listed by composer ${composerId} but not in the store; that message is left out` });
      });
    } else if (Array.isArray(composer.conversation)) {
      for (const bubble of composer.conversation) if (isRecord(bubble)) conversation.push(bubbleOf(bubble));
    }
    if (conversation.length === 0) {
      empty++;
      continue;
    }
    const modelConfig = isRecord(composer.modelConfig) ? composer.modelConfig : {};
    const document: CursorComposerDocument = { composerId, conversation };
    const name = str(composer.name);
    if (name) document.name = name;
    const createdAt = num(composer.createdAt);
    if (createdAt !== undefined) document.createdAt = createdAt;
    const lastUpdatedAt = num(composer.lastUpdatedAt);
    if (lastUpdatedAt !== undefined) document.lastUpdatedAt = lastUpdatedAt;
    const modelName = str(modelConfig.modelName);
    if (modelName) document.modelName = modelName;
    const parentId = parents.get(composerId);
    if (parentId) document.parentComposerId = parentId;
    const children = Array.isArray(composer.subComposerIds) ? composer.subComposerIds.filter((id): id is string => typeof id === 'string') : [];
    if (children.length > 0) document.subComposerIds = children;
    const first = conversation.find((bubble) => bubble.type === 1 && typeof bubble.text === 'string' && bubble.text.trim());
    out.push({ composerId, name: name ?? (first ? String(first.text).trim().split('\n')[0]!.slice(0, 80) : composerId), ...(parentId ? { parentId } : {}), document });
  }
  // Newest conversation first, as Cursor lists them.
  out.sort((a, b) => (b.document.lastUpdatedAt ?? b.document.createdAt ?? 0) - (a.document.lastUpdatedAt ?? a.document.createdAt ?? 0) || a.composerId.localeCompare(b.composerId));
  return { composers: out, problems, empty };
}
