/**
 * Importing several files or a folder at once: a Claude Code session with its subagents
 * (`<session>.jsonl`, `<session>/subagents/agent-<id>.jsonl` and their `agent-<id>.meta.json`). Each
 * metadata file is read with the transcript it describes, never imported as one; files of a folder
 * that are not transcripts are left out. The library links the subagents to their session by id.
 * A Factory Droid session's `<id>.settings.json` is read with its `<id>.jsonl` the same way, and a
 * GitHub Copilot CLI session's `workspace.yaml` with the `events.jsonl` beside it; a Droid subagent
 * session picked with its caller's session file takes its type and description from the Task call.
 */
import { isClineTaskFolder, readClineTasks } from '../core/import/cline-folder.ts';
import { isSqliteHeader } from '../core/import/cursor-store.ts';
import { cursorTranscriptPath } from '../core/import/cursor.ts';
import { isOpencodeStorage, readOpencodeFolder, type FolderFile } from '../core/import/opencode-folder.ts';
import { kimiWirePath, readKimiFolder } from '../core/import/kimi-folder.ts';
import { kimiContextOrder } from '../core/import/kimi-context.ts';
import { isKimiCodeState, kimiCodeSessionFolders, planKimiCodeFolder } from '../core/import/kimi-code-folder.ts';
import { isSubagentMetaName, parseSubagentMeta, subagentMetaNameOf } from '../core/import/subagent-meta.ts';
import { droidSettingsNameOf, isDroidSettingsName, parseDroidSettings } from '../core/import/droid-settings.ts';
import { droidTaskCallFor } from './droid-caller.ts';
import { parseCopilotWorkspace } from '../core/import/copilot-workspace.ts';
import type { FormatId } from '../core/import/types.ts';
import { readStoreFile } from '../worker/import/store-db-client.ts';
import { errorMessage, importFile } from './actions.ts';
import { useAppStore } from './store.ts';

/** What a folder import reads: transcript extensions (a file picked by name is always tried). */
const TRANSCRIPT = /\.(jsonl|json|ndjson)$/i;

/** A file and its path inside the folder it was picked or dropped with ('' when picked alone). */
export interface PickedFile {
  file: File;
  path: string;
}

/** Files from a file input: a folder pick gives each its `webkitRelativePath`. */
export function pickedFiles(files: Iterable<File>): PickedFile[] {
  return Array.from(files, (file) => ({ file, path: file.webkitRelativePath }));
}

function folderOf({ path }: PickedFile): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The files picked in the same folder as the file at `path` (all of them when picked alone), by name. */
function filesBeside(files: readonly PickedFile[], path: string): Map<string, File> {
  const folder = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  return new Map(files.filter((picked) => folderOf(picked) === folder).map((picked) => [picked.file.name, picked.file]));
}

export interface ImportPlan {
  transcripts: Array<{ file: File; meta?: File; settings?: File; workspace?: File }>;
  /** Files of a folder that are neither transcripts nor subagent metadata. */
  skipped: File[];
}

/** Which files are transcripts, which metadata goes with which transcript, which are left out. */
export function planImport(files: readonly PickedFile[]): ImportPlan {
  const metas = new Map<string, File>();
  for (const picked of files) {
    if (isSubagentMetaName(picked.file.name) || isDroidSettingsName(picked.file.name) || picked.file.name === 'workspace.yaml') metas.set(`${folderOf(picked)}/${picked.file.name}`, picked.file);
  }
  const transcripts: ImportPlan['transcripts'] = [];
  const skipped: File[] = [];
  for (const picked of files) {
    const { file } = picked;
    if (isSubagentMetaName(file.name) || isDroidSettingsName(file.name) || file.name === 'workspace.yaml') continue;
    if (picked.path !== '' && !TRANSCRIPT.test(file.name)) {
      skipped.push(file);
      continue;
    }
    const metaName = subagentMetaNameOf(file.name);
    const meta = metaName === undefined ? undefined : metas.get(`${folderOf(picked)}/${metaName}`);
    const settingsName = droidSettingsNameOf(file.name);
    const settings = settingsName === undefined ? undefined : metas.get(`${folderOf(picked)}/${settingsName}`);
    const workspace = file.name === 'events.jsonl' ? metas.get(`${folderOf(picked)}/workspace.yaml`) : undefined;
    transcripts.push({ file, ...(meta ? { meta } : {}), ...(settings ? { settings } : {}), ...(workspace ? { workspace } : {}) });
  }
  return { transcripts, skipped };
}

/**
 * An opencode storage folder: each session assembled from its session, message and part files into
 * the document `opencode export` prints, imported as one conversation (subagent sessions link to
 * the session that started them). Files that are no opencode record are named in a notice.
 */
async function importOpencodeFolder(files: readonly PickedFile[]): Promise<void> {
  const { sessions, problems } = readOpencodeFolder(await jsonTexts(files));
  for (const session of sessions) await importFile(documentFile(session.document, session.sessionId), { format: 'opencode' });
  noticeProblems(problems, 'opencode folder');
}

/** A Kimi CLI session folder: its wire.jsonl, with the folder's session id, title and subagent descriptions. */
async function importKimiFolder(files: readonly PickedFile[], wirePath: string): Promise<void> {
  const wire = files.find((picked) => (picked.path || picked.file.name) === wirePath);
  if (!wire) return;
  // The session's own context files (beside its wire) hold the compaction summaries.
  const dir = wirePath.includes('/') ? wirePath.slice(0, wirePath.lastIndexOf('/') + 1) : '';
  const contexts = files.filter((picked) => {
    const path = picked.path || picked.file.name;
    return path.startsWith(dir) && kimiContextOrder(path.slice(dir.length)) !== undefined;
  });
  const { info, problems } = readKimiFolder(wirePath, [...(await jsonTexts(files)), ...(await Promise.all(contexts.map(async (picked) => ({ path: picked.path || picked.file.name, text: await picked.file.text() }))))], wirePath.split('/')[0] ?? 'session');
  await importFile(wire.file, { format: 'kimi', kimiFolder: info });
  noticeProblems(problems, 'Kimi session folder');
}

/**
 * A Kimi Code session folder: each agent's wire.jsonl, the subagents first and the session last (so
 * it is the one open), each told which agent it is; a folder without its main agent's wire is
 * refused with nothing imported.
 */
async function importKimiCodeFolder(files: readonly PickedFile[], prefix: string): Promise<void> {
  const pathOf = (picked: PickedFile) => picked.path || picked.file.name;
  const state = files.find((picked) => pathOf(picked) === `${prefix}state.json`);
  let plan;
  try {
    plan = planKimiCodeFolder(files.map(pathOf), prefix, state ? await state.file.text() : undefined, 'session');
  } catch (error) {
    useAppStore.getState().setNotice({ fileName: prefix.slice(0, -1) || 'the selection', error: errorMessage(error), nothingChanged: true });
    return;
  }
  const wireOf = (path: string) => files.find((picked) => pathOf(picked) === path)?.file;
  for (const { info, path } of [...plan.agents.slice(1), plan.agents[0]!]) {
    const wire = wireOf(path);
    // A subagent's Agent call is in one of the folder's other wires: they go with it.
    const parents = info.main ? [] : plan.agents.filter((agent) => agent.path !== path).flatMap((agent) => wireOf(agent.path) ?? []);
    // Each wire is named for its agent: every one of them is called wire.jsonl.
    if (wire) await importFile(new File([wire], info.main ? `${info.sessionId}.jsonl` : `${info.agentId}.jsonl`), { format: 'kimi-code', kimiCodeAgent: info, ...(parents.length > 0 ? { kimiCodeParents: parents } : {}) });
  }
  noticeProblems(plan.problems, 'Kimi Code session folder');
}

/** A Cline / Roo Code task folder (or a folder of tasks): each task's history with its panel messages. */
async function importClineFolder(files: readonly PickedFile[]): Promise<void> {
  const { tasks, problems } = readClineTasks(await jsonTexts(files));
  for (const task of tasks) await importFile(documentFile(task.document, task.taskId), { format: 'cline' });
  noticeProblems(problems, 'task folder');
}

/**
 * An agent's SQLite store, recognized by its header and told apart by its tables: Cursor's chat
 * store (`state.vscdb`) or opencode's (`opencode.db`). Read in a worker of its own, each
 * conversation with messages imported as a session (Cursor's oldest first, so the newest is open
 * at the end; opencode's in id order, which is time order), subagents linked to the conversation
 * that started them. A file that cannot be read changes nothing; rows the store could not read
 * are named in a notice.
 */
async function importSqliteStore(file: File): Promise<void> {
  let read;
  try {
    read = await readStoreFile(file);
  } catch (error) {
    useAppStore.getState().setNotice({ fileName: file.name, error: errorMessage(error), nothingChanged: true });
    return;
  }
  if (read.kind === 'opencode') {
    for (const session of read.store.sessions) await importFile(documentFile(session.document, session.sessionId), { format: 'opencode' });
  } else {
    for (const composer of [...read.store.composers].reverse()) await importFile(documentFile(composer.document, composer.composerId), { format: 'cursor' });
  }
  noticeProblems(read.store.problems.map(({ key, message }) => ({ path: key, message })), read.kind === 'opencode' ? 'opencode store' : 'chat store');
}

async function isSqliteFile(file: File): Promise<boolean> {
  return isSqliteHeader(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
}

/** A picked folder with Kimi Code's `state.json` but no `agents/` beside it: its prefix, so the missing wires are named. */
async function kimiCodeStateOnly(files: readonly PickedFile[]): Promise<string | undefined> {
  const state = files.find((picked) => /^([^/]+\/)?state\.json$/.test(picked.path || picked.file.name));
  if (!state || !isKimiCodeState(await state.file.text())) return undefined;
  const path = state.path || state.file.name;
  return path.slice(0, -'state.json'.length);
}

async function jsonTexts(files: readonly PickedFile[]): Promise<FolderFile[]> {
  return Promise.all(files.filter((picked) => picked.file.name.endsWith('.json')).map(async (picked) => ({ path: picked.path || picked.file.name, text: await picked.file.text() })));
}

function documentFile(document: unknown, id: string): File {
  return new File([JSON.stringify(document, null, 1)], `${id}.json`, { type: 'application/json' });
}

function noticeProblems(problems: ReadonlyArray<{ path: string; message: string }>, what: string): void {
  const first = problems[0];
  if (first === undefined) return;
  useAppStore.getState().setNotice({ fileName: first.path, error: `${problems.length} ${what.endsWith('store') ? 'record' : 'file'}${problems.length === 1 ? '' : 's'} of the ${what} could not be read and ${problems.length === 1 ? 'was' : 'were'} left out; the first: ${first.path}: ${first.message}.` });
}

/** Imports the files one after the other, each subagent with its metadata. */
export async function importFiles(files: readonly PickedFile[], options: { format?: FormatId } = {}): Promise<void> {
  const paths = files.map((picked) => picked.path || picked.file.name);
  if (files.length > 1 && isOpencodeStorage(paths)) {
    await importOpencodeFolder(files);
    return;
  }
  if (files.length > 1 && isClineTaskFolder(paths)) {
    await importClineFolder(files);
    return;
  }
  const kimiWire = files.length > 1 ? kimiWirePath(paths) : undefined;
  if (kimiWire !== undefined) {
    await importKimiFolder(files, kimiWire);
    return;
  }
  // Kimi Code session folders: one picked whole, or a work directory's (or all sessions) at once.
  const kimiCode = files.length > 1 ? kimiCodeSessionFolders(paths) : [];
  const stateOnly = files.length > 1 && kimiCode.length === 0 ? await kimiCodeStateOnly(files) : undefined;
  if (kimiCode.length > 0 || stateOnly !== undefined) {
    for (const prefix of stateOnly === undefined ? kimiCode : [stateOnly]) await importKimiCodeFolder(files.filter((picked) => (picked.path || picked.file.name).startsWith(prefix)), prefix);
    const rest = files.filter((picked) => !kimiCode.some((prefix) => (picked.path || picked.file.name).startsWith(prefix)));
    if (stateOnly === undefined && rest.some((picked) => /\.jsonl$/i.test(picked.file.name))) await importFiles(rest, options);
    return;
  }
  const { transcripts, skipped } = planImport(files);
  const pathOf = new Map(files.map((picked) => [picked.file, picked.path]));
  if (transcripts.length === 0) {
    if (files.length === 0) return;
    const names = skipped.slice(0, 5).map((file) => file.name).join(', ');
    useAppStore.getState().setNotice({ fileName: files[0]?.path.split('/')[0] || 'the selection', error: `No transcript (.jsonl, .json) to import${names ? `: found ${names}${skipped.length > 5 ? ', …' : ''}` : ''}.`, nothingChanged: true });
    return;
  }
  for (const { file, meta, settings, workspace } of transcripts) {
    if (await isSqliteFile(file)) {
      await importSqliteStore(file);
      continue;
    }
    let subagentMeta;
    let metaError: string | undefined;
    try {
      subagentMeta = meta ? parseSubagentMeta(await meta.text(), meta.name) : undefined;
    } catch (error) {
      metaError = errorMessage(error);
    }
    // A Cursor subagent (<session>/subagents/<id>.jsonl) is linked to its session by its folder.
    const cursor = meta === undefined ? cursorTranscriptPath(pathOf.get(file) ?? '') : undefined;
    if (cursor?.parentSessionId) subagentMeta = { parentSessionId: cursor.parentSessionId, agentId: cursor.sessionId };
    let droidSettings;
    let settingsError: string | undefined;
    try {
      droidSettings = settings ? { fileName: settings.name, settings: parseDroidSettings(await settings.text(), settings.name) } : undefined;
    } catch (error) {
      settingsError = errorMessage(error);
    }
    let copilotWorkspace;
    try {
      copilotWorkspace = workspace ? parseCopilotWorkspace(await workspace.text(), workspace.name) : undefined;
    } catch (error) {
      settingsError = errorMessage(error);
    }
    const droidTaskCall = await droidTaskCallFor(file, filesBeside(files, pathOf.get(file) ?? ''));
    const outcome = await importFile(file, { ...options, ...(subagentMeta ? { subagentMeta } : {}), ...(droidSettings ? { droidSettings } : {}), ...(droidTaskCall ? { droidTaskCall } : {}), ...(copilotWorkspace ? { copilotWorkspace } : {}) });
    // Broken metadata costs the subagent its description, not its import: said once it is in.
    if (metaError !== undefined && outcome !== undefined) useAppStore.getState().setNotice({ fileName: meta?.name ?? file.name, error: `${metaError} The subagent was imported without its description.` });
    if (settingsError !== undefined && outcome !== undefined) useAppStore.getState().setNotice({ fileName: settings?.name ?? workspace?.name ?? file.name, error: `${settingsError} The session was imported without ${settings ? 'its settings (model, token totals)' : 'its workspace (title, working directory)'}.` });
  }
}
