/**
 * An opencode storage folder read as sessions: opencode keeps each session, message and part as a
 * JSON file of its own (`storage/session/<project>/<session>.json`, `storage/message/<session>/<message>.json`,
 * `storage/part/<message>/<part>.json`; older versions under `project/<project>/storage/session/{info,message,part}/`).
 * The files are told apart by what they hold, not where they are, so both layouts read the same;
 * each session becomes the document `opencode export` prints (`{info, messages: [{info, parts}]}`),
 * messages in the order they were created, parts in id order (opencode's ids ascend in time).
 */
import { isRecord, num, str } from './builder.ts';

/** A file of the folder: its path inside the folder and its text. */
export interface FolderFile {
  path: string;
  text: string;
}

export interface OpencodeSession {
  sessionId: string;
  /** The session's title, else its id. */
  name: string;
  /** The session that started this one (a subagent's parent), when recorded. */
  parentId?: string;
  document: { info: Record<string, unknown>; messages: Array<{ info: Record<string, unknown>; parts: Record<string, unknown>[] }> };
}

export interface OpencodeFolder {
  sessions: OpencodeSession[];
  /** Files that could not be read as opencode records, with the reason. */
  problems: Array<{ path: string; message: string }>;
}

/** Folders of an opencode storage directory (its sessions, messages, parts, and what it keeps beside them). */
const STORAGE_DIRS = new Set(['session', 'message', 'part', 'info', 'project', 'todo', 'session_diff', 'session_share', 'share', 'snapshot']);

/**
 * Does this list of paths look like an opencode storage folder: message and part files, and every
 * JSON file inside one of opencode's storage folders (so a folder that also holds other transcripts
 * is walked for them instead)?
 */
export function isOpencodeStorage(paths: readonly string[]): boolean {
  const json = paths.filter((path) => path.endsWith('.json'));
  const inStorage = (path: string) => path.split('/').slice(0, -1).some((segment) => STORAGE_DIRS.has(segment));
  return json.length > 0 && json.every(inStorage) && json.some((path) => /(^|\/)message\/[^/]+\/[^/]+\.json$/.test(path)) && json.some((path) => /(^|\/)part\/.+\.json$/.test(path));
}

function created(record: Record<string, unknown>): number {
  const time = isRecord(record.time) ? record.time : {};
  return num(time.created) ?? 0;
}

const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));

/** Groups the folder's session, message and part files into one document per session. */
export function readOpencodeFolder(files: readonly FolderFile[]): OpencodeFolder {
  const problems: OpencodeFolder['problems'] = [];
  const infos = new Map<string, Record<string, unknown>>();
  const messages = new Map<string, Array<Record<string, unknown>>>();
  const parts = new Map<string, Array<Record<string, unknown>>>();
  for (const file of files) {
    if (!file.path.endsWith('.json')) continue;
    let value: unknown;
    try {
      value = JSON.parse(file.text);
    } catch (error) {
      problems.push({ path: file.path, message: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (!isRecord(value) || typeof value.id !== 'string') {
      problems.push({ path: file.path, message: 'not an opencode record (no string "id")' });
      continue;
    }
    if (typeof value.messageID === 'string' && typeof value.type === 'string') {
      const list = parts.get(value.messageID) ?? [];
      list.push(value);
      parts.set(value.messageID, list);
    } else if (typeof value.sessionID === 'string' && typeof value.role === 'string') {
      const list = messages.get(value.sessionID) ?? [];
      list.push(value);
      messages.set(value.sessionID, list);
    } else if ('projectID' in value || ('title' in value && 'directory' in value)) {
      infos.set(value.id, value);
    } else {
      problems.push({ path: file.path, message: `not an opencode session, message or part (keys ${Object.keys(value).slice(0, 6).join(', ')})` });
    }
  }
  const ids = [...new Set([...infos.keys(), ...messages.keys()])].sort();
  const sessions = ids.map((sessionId): OpencodeSession => {
    const info = infos.get(sessionId) ?? { id: sessionId };
    const list = [...(messages.get(sessionId) ?? [])].sort((a, b) => created(a) - created(b) || byId(a, b));
    const parentId = str(info.parentID);
    return {
      sessionId,
      name: str(info.title) ?? sessionId,
      ...(parentId ? { parentId } : {}),
      document: { info, messages: list.map((message) => ({ info: message, parts: [...(parts.get(String(message.id)) ?? [])].sort(byId) })) },
    };
  });
  return { sessions, problems };
}
