/**
 * A Kimi CLI session folder read as its session: `wire.jsonl` is the conversation (its subagents'
 * events inline), the folder's name is the session id, `state.json` gives a title the user set, and
 * each `subagents/<agent id>/meta.json` the type and description of that subagent's thread. The
 * subagents' own `wire.jsonl` / `context.jsonl` and the session's `context.jsonl` repeat what the
 * wire holds, so they are not imported again; only the compaction summaries the context files start
 * with are read (kimi-context.ts) and written into the wire's compaction markers.
 */
import { isRecord, str } from './builder.ts';
import { kimiCompactionSummaries } from './kimi-context.ts';
import type { FolderFile } from './opencode-folder.ts';
import type { ImportResult, SubagentLink } from './types.ts';

/** What a session folder adds to its wire: the session id, a title, each subagent's type and description. */
export interface KimiFolderInfo {
  sessionId: string;
  title?: string;
  subagents: Record<string, Pick<SubagentLink, 'agentType' | 'description'>>;
  /** The compaction summaries of the context files, oldest first. */
  compactions?: string[];
}

const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const folder = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * The session's own `wire.jsonl` among a folder's paths, if the folder is a Kimi session: at its top
 * (`wire.jsonl`, or `<picked folder>/wire.jsonl` as the page names a picked folder's files), so a
 * folder that merely contains a session somewhere deeper is not taken for one.
 */
export function kimiWirePath(paths: readonly string[]): string | undefined {
  const wires = paths.filter((path) => name(path) === 'wire.jsonl' && path.split('/').length <= 2);
  if (wires.length !== 1) return undefined;
  const wire = wires[0]!;
  const dir = folder(wire);
  const sibling = (file: string) => paths.includes(dir ? `${dir}/${file}` : file);
  return sibling('state.json') || sibling('context.jsonl') ? wire : undefined;
}

/** Is this list of paths one Kimi CLI session folder (`wire.jsonl` with `state.json` or `context.jsonl` beside it)? */
export function isKimiSessionFolder(paths: readonly string[]): boolean {
  return kimiWirePath(paths) !== undefined;
}

/**
 * The folder's information, from its JSON files (`state.json`, `subagents/<id>/meta.json`) and its
 * context files (`context.jsonl`, `context_<n>.jsonl`: the compaction summaries);
 * `folderName` is the session folder's own name (the paths are relative to it, or start with it).
 * A file that is not the JSON object it should be is named with the reason.
 */
export function readKimiFolder(wirePath: string, files: readonly FolderFile[], folderName: string): { info: KimiFolderInfo; problems: Array<{ path: string; message: string }> } {
  const dir = folder(wirePath);
  const sessionId = dir ? name(dir) : folderName;
  const info: KimiFolderInfo = { sessionId, subagents: {} };
  const problems: Array<{ path: string; message: string }> = [];
  const read = (file: FolderFile): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(file.text);
      if (isRecord(value)) return value;
      problems.push({ path: file.path, message: 'not a JSON object' });
    } catch (error) {
      problems.push({ path: file.path, message: `not valid JSON (${(error as Error).message})` });
    }
    return undefined;
  };
  const prefix = dir ? `${dir}/` : '';
  const compactions = kimiCompactionSummaries(files, prefix);
  if (compactions.length > 0) info.compactions = compactions;
  for (const file of files) {
    if (file.path === `${prefix}state.json`) {
      const title = str(read(file)?.custom_title);
      if (title) info.title = title;
      continue;
    }
    const match = /^subagents\/([^/]+)\/meta\.json$/.exec(file.path.slice(prefix.length));
    if (!file.path.startsWith(prefix) || !match) continue;
    const meta = read(file);
    if (!meta) continue;
    const agentType = str(meta.subagent_type);
    const description = str(meta.description);
    info.subagents[str(meta.agent_id) ?? match[1]!] = { ...(agentType ? { agentType } : {}), ...(description ? { description } : {}) };
  }
  return { info, problems };
}

/**
 * The wire's import with the folder's session id, title and subagent descriptions, and the
 * compaction summaries in its markers: the newest summary in the last marker, and so on back (the
 * context files of compactions older than the folder's rotations are gone, their markers stay empty).
 */
export function withKimiFolder(result: ImportResult, info: KimiFolderInfo): ImportResult {
  const title = info.title ?? result.meta.title;
  const summaries = [...(info.compactions ?? [])];
  const entries = summaries.length === 0 ? result.entries : [...result.entries];
  for (let index = entries.length - 1; index >= 0 && summaries.length > 0; index--) {
    const entry = entries[index]!;
    if (entry.kind === 'compaction' && entry.marker?.source === 'kimi.compaction') entries[index] = { ...entry, blocks: [{ type: 'text', text: summaries.pop()! }] };
  }
  const threads = result.threads?.map((thread): ImportResult => {
    const link: SubagentLink = { ...thread.meta.subagent, parentSessionId: info.sessionId };
    const known = link.agentId === undefined ? undefined : info.subagents[link.agentId];
    if (known?.agentType) link.agentType = known.agentType;
    if (known?.description) link.description = known.description;
    const threadTitle = known?.description ?? thread.meta.title;
    return { ...thread, meta: { ...thread.meta, sessionId: info.sessionId, ...(threadTitle ? { title: threadTitle } : {}), subagent: link } };
  });
  return { ...result, entries, meta: { ...result.meta, sessionId: info.sessionId, ...(title ? { title } : {}) }, ...(threads ? { threads } : {}) };
}
