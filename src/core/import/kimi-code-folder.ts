/**
 * A Kimi Code session folder (`~/.kimi-code/sessions/wd_<slug>_<hash>/session_<uuid>/`) read as its
 * session: `state.json` names the session (`id`, `title`, `cwd`) and its agents (`agents: {main:
 * {type: "main"}, agent-0: {type: "sub", parentAgentId: "main"}}`), and each agent's
 * `agents/<agent id>/wire.jsonl` is read by the line importer (kimi-code.ts). The main agent is the
 * session; every other agent is a subagent linked to it, and, where its parent's `Agent` call can be
 * found, to that call with the call's `subagent_type` and `description`.
 */
import type { ToolCallBlock } from '../journal/entry.ts';
import { isRecord, str, toEpochMs } from './builder.ts';
import { KIMI_CODE_MAIN_AGENT } from './kimi-code.ts';
import { ImportFormatError, type ImportResult, type SubagentLink } from './types.ts';

/** What the folder says about one agent's wire: its session, its own id, and for the main agent the session's title and directory. */
export interface KimiCodeAgentInfo {
  sessionId: string;
  agentId: string;
  /** True for the session's main agent. */
  main: boolean;
  title?: string;
  cwd?: string;
  /** `state.json` `createdAt` (epoch ms; older sessions wrote an ISO string). */
  createdAt?: number;
}

/** The wires of a session folder, the main agent's first; paths as given (relative to the picked folder or prefixed by its name). */
export interface KimiCodePlan {
  agents: Array<{ info: KimiCodeAgentInfo; path: string }>;
  /** `state.json` when it could not be read: the session is still read, named by its folder. */
  problems: Array<{ path: string; message: string }>;
}

const WIRE = /^agents\/([^/]+)\/wire\.jsonl$/;

/**
 * The folder prefix ('' or `<picked folder>/`) when these paths are one Kimi Code session folder: a
 * `state.json` with an `agents/` folder beside it, at the top or one folder down.
 */
export function kimiCodeFolderPrefix(paths: readonly string[]): string | undefined {
  const found = kimiCodeSessionFolders(paths).filter((prefix) => prefix.split('/').length <= 2);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Every Kimi Code session folder among these paths, at any depth (a work directory's `wd_<slug>_<hash>/`
 * or the whole `sessions/` folder picked at once): the prefix of each `state.json` with an `agents/`
 * folder beside it, in path order.
 */
export function kimiCodeSessionFolders(paths: readonly string[]): string[] {
  const prefixes = paths.filter((path) => path === 'state.json' || path.endsWith('/state.json')).map((path) => path.slice(0, -'state.json'.length));
  return prefixes.filter((prefix) => paths.some((path) => path.startsWith(`${prefix}agents/`))).sort();
}

/** Is a `state.json` text Kimi Code's (an object with its `agents` map), so a folder without wires is named as a broken session, not a stranger? */
export function isKimiCodeState(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && isRecord(value.agents);
  } catch {
    return false;
  }
}

/**
 * Which wire is which agent's, from the folder's paths and its `state.json` (undefined when the
 * folder has none); `folderName` names the session when `state.json` gives no id. A folder without
 * the main agent's wire is refused: there is no session to read.
 */
export function planKimiCodeFolder(paths: readonly string[], prefix: string, stateText: string | undefined, folderName: string): KimiCodePlan {
  const problems: KimiCodePlan['problems'] = [];
  let state: Record<string, unknown> = {};
  if (stateText !== undefined) {
    try {
      const value: unknown = JSON.parse(stateText);
      if (isRecord(value)) state = value;
      else problems.push({ path: `${prefix}state.json`, message: 'not a JSON object' });
    } catch (error) {
      problems.push({ path: `${prefix}state.json`, message: `not valid JSON (${(error as Error).message})` });
    }
  }
  const agents = isRecord(state.agents) ? state.agents : {};
  const mainId = Object.keys(agents).find((id) => isRecord(agents[id]) && agents[id].type === 'main') ?? KIMI_CODE_MAIN_AGENT;
  const sessionId = str(state.id) ?? (prefix ? prefix.slice(0, -1).split('/').at(-1)! : folderName);
  const wires = paths.flatMap((path) => {
    const match = path.startsWith(prefix) ? WIRE.exec(path.slice(prefix.length)) : null;
    return match ? [{ agentId: match[1]!, path }] : [];
  });
  const main = wires.find((wire) => wire.agentId === mainId);
  if (!main) {
    const found = wires.map((wire) => wire.path).join(', ');
    throw new ImportFormatError(`"${sessionId}" is a Kimi Code session folder without its main agent's agents/${mainId}/wire.jsonl${found ? ` (found ${found})` : ' (its agents folder holds no wire.jsonl)'}; pick the whole session folder.`);
  }
  const title = str(state.title);
  const cwd = str(state.cwd) ?? str(state.workDir);
  const createdAt = toEpochMs(state.createdAt);
  return {
    agents: [
      { info: { sessionId, agentId: mainId, main: true, ...(title ? { title } : {}), ...(cwd ? { cwd } : {}), ...(createdAt !== undefined ? { createdAt } : {}) }, path: main.path },
      ...wires.filter((wire) => wire !== main).map((wire) => ({ info: { sessionId, agentId: wire.agentId, main: false }, path: wire.path })),
    ],
    problems,
  };
}

/** One agent's import with what the folder says: the main agent's session id, title, directory and start; a subagent's link to the session. */
export function withKimiCodeAgent(result: ImportResult, info: KimiCodeAgentInfo): ImportResult {
  if (info.main) {
    const { subagent: _ignored, ...meta } = result.meta;
    return { ...result, meta: { ...meta, sessionId: info.sessionId, ...(info.title ? { title: info.title } : {}), ...(info.cwd ? { cwd: info.cwd } : {}), ...(info.createdAt !== undefined ? { createdAt: info.createdAt } : {}) } };
  }
  const subagent: SubagentLink = { ...result.meta.subagent, agentId: info.agentId, parentSessionId: info.sessionId };
  return { ...result, meta: { ...result.meta, sessionId: info.sessionId, subagent } };
}

/**
 * The session with its subagents as threads, each linked to the `Agent` call that started it
 * (linkKimiCodeSubagent). A subagent no call names keeps its link to the session.
 */
export function linkKimiCodeSubagents(session: ImportResult, subagents: readonly ImportResult[]): ImportResult {
  if (subagents.length === 0) return session;
  const threads = subagents.map((thread) => linkKimiCodeSubagent(thread, [session, ...subagents.filter((other) => other !== thread)]));
  return { ...session, threads };
}

/**
 * A subagent linked to the `Agent` call that started it, found among the imports of the other wires
 * of its session folder (the parent whose call's result named its agent id): the call's id,
 * `subagent_type` and `description` (which titles the thread). The command line (the whole folder
 * read at once) and the page (each wire imported on its own, the others passed beside it) both link
 * here. A subagent no call names is returned unchanged.
 */
export function linkKimiCodeSubagent(thread: ImportResult, parents: readonly ImportResult[]): ImportResult {
  const agentId = thread.meta.subagent?.agentId;
  if (agentId === undefined) return thread;
  const parent = parents.find((candidate) => candidate.meta.subagentCalls?.[agentId] !== undefined);
  const callId = parent?.meta.subagentCalls?.[agentId];
  const call = callId === undefined ? undefined : parent?.entries.flatMap((entry) => entry.blocks).find((block): block is ToolCallBlock => block.type === 'tool_call' && block.callId === callId);
  if (!call) return thread;
  const args = isRecord(call.input) ? call.input : {};
  const agentType = str(args.subagent_type);
  const description = str(args.description);
  const link: SubagentLink = { ...thread.meta.subagent, parentToolUseId: call.callId, ...(agentType ? { agentType } : {}), ...(description ? { description } : {}) };
  return { ...thread, meta: { ...thread.meta, ...(description ? { title: description } : {}), subagent: link } };
}
