/** Reads a transcript file through the same streaming import the app uses, and the prompt files from disk. */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { PromptLibrary } from '../core/compaction/prompts.ts';
import { isClineTaskFolder, readClineTasks } from '../core/import/cline-folder.ts';
import { cursorTranscriptPath } from '../core/import/cursor.ts';
import { droidSettingsNameOf, parseDroidSettings, withDroidSettings } from '../core/import/droid-settings.ts';
import { droidCallerFileName, readDroidTaskCall, withDroidTaskCall } from '../core/import/droid-task-call.ts';
import { parseCopilotWorkspace, withCopilotWorkspace } from '../core/import/copilot-workspace.ts';
import { isOpencodeStorage, readOpencodeFolder, type FolderFile } from '../core/import/opencode-folder.ts';
import { importText, ImportSession } from '../core/import/run.ts';
import { importSqliteStore, storePath } from './load-store.ts';
import { importKimiFolder, isKimiFolder } from './load-kimi.ts';
import { importKimiCodeFolder, isKimiCodeFolder } from './load-kimi-code.ts';
import { pathsUnder } from './paths-under.ts';
import { ImportFormatError, type FormatId, type ImportResult } from '../core/import/types.ts';

/**
 * A transcript file, a folder Foldlab reads as one session (an opencode storage folder, a Cline task
 * folder, a Kimi CLI or GitHub Copilot CLI session folder), or one
 * conversation of an agent's SQLite store (Cursor's `state.vscdb`, opencode's `opencode.db`; or `<store>#<id>`).
 */
export async function importFile(path: string, format?: FormatId): Promise<ImportResult> {
  const store = storePath(path);
  if (store) return importSqliteStore(store.file, store.id);
  const stat = statSync(path);
  if (stat.isDirectory()) {
    // A GitHub Copilot CLI session folder (`~/.copilot/session-state/<id>/`): its log, with the workspace.yaml beside it.
    if (existsSync(join(path, COPILOT_LOG))) return importFile(join(path, COPILOT_LOG), format);
    return (await importKimiFolder(path)) ?? (await importKimiCodeFolder(path)) ?? importFolder(path);
  }
  const size = stat.size;
  const session = new ImportSession({ fileName: basename(path), size, ...(format ? { format } : {}) });
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) session.push(chunk as Uint8Array);
  const result = session.finish();
  // A Cursor subagent (<session>/subagents/<id>.jsonl) names its session by its folder.
  const cursor = result.format === 'cursor' ? cursorTranscriptPath(resolve(path).split('\\').join('/')) : undefined;
  if (cursor?.parentSessionId && result.meta.subagent === undefined) result.meta.subagent = { parentSessionId: cursor.parentSessionId, agentId: cursor.sessionId };
  if (result.format === 'copilot-cli' && basename(path) === COPILOT_LOG) return withCopilotWorkspaceBeside(path, result);
  return result.format === 'droid' ? withDroidTaskCallBeside(path, withDroidSettingsBeside(path, result)) : result;
}

/** The event log a GitHub Copilot CLI session folder holds. */
const COPILOT_LOG = 'events.jsonl';

/** A GitHub Copilot CLI session with the `workspace.yaml` of its folder applied (title, cwd), when there is one. */
function withCopilotWorkspaceBeside(path: string, result: ImportResult): ImportResult {
  const workspacePath = join(dirname(path), 'workspace.yaml');
  if (!existsSync(workspacePath)) return result;
  return withCopilotWorkspace(result, parseCopilotWorkspace(readFileSync(workspacePath, 'utf8'), 'workspace.yaml'));
}

/** A Factory Droid session with the `<id>.settings.json` beside it applied (model, token totals check), when there is one. */
function withDroidSettingsBeside(path: string, result: ImportResult): ImportResult {
  const name = droidSettingsNameOf(basename(path));
  const settingsPath = name === undefined ? undefined : join(dirname(path), name);
  if (name === undefined || settingsPath === undefined || !existsSync(settingsPath)) return result;
  return withDroidSettings(result, parseDroidSettings(readFileSync(settingsPath, 'utf8'), name), name);
}

/** A Factory Droid subagent session with its type and description from the caller's Task call, when the caller's session file is beside it. */
function withDroidTaskCallBeside(path: string, result: ImportResult): ImportResult {
  const link = result.meta.subagent;
  if (link?.parentSessionId === undefined || link.parentToolUseId === undefined) return result;
  const name = droidCallerFileName({ sessionId: link.parentSessionId });
  const parentPath = join(dirname(path), name);
  if (!existsSync(parentPath)) return result;
  return withDroidTaskCall(result, readDroidTaskCall(readFileSync(parentPath, 'utf8'), name, link.parentToolUseId));
}

/** Every file under `dir`, with its path relative to it ('/'-separated). */
function filesUnder(dir: string): FolderFile[] {
  return pathsUnder(dir, (name) => name.endsWith('.json')).map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
}

/** Is `dir` an opencode storage folder, a Cline task folder or a Kimi CLI or Kimi Code session folder (read as a session, not walked for transcripts)? */
export function isSessionFolder(dir: string): boolean {
  const paths = pathsUnder(dir, (name) => name.endsWith('.json'));
  return isOpencodeStorage(paths) || isClineTaskFolder(paths) || isKimiFolder(dir) || isKimiCodeFolder(dir);
}

/**
 * An opencode storage folder: its one top-level session, with the sessions it started as its
 * subagent threads. A folder of several top-level sessions is refused with their ids and titles.
 */
function importFolder(dir: string): ImportResult {
  const files = filesUnder(dir);
  const name = basename(resolve(dir));
  const paths = files.map((file) => file.path);
  if (!isOpencodeStorage(paths) && isClineTaskFolder(paths)) return importClineFolder(files, name);
  if (!isOpencodeStorage(paths)) {
    throw new ImportFormatError(`"${name}" is a folder, but not an opencode storage folder (message/<session>/*.json and part/<message>/*.json files), a Cline / Roo Code task folder (api_conversation_history.json), a Kimi CLI session folder (wire.jsonl) or a GitHub Copilot CLI session folder (events.jsonl); pass a transcript file, or such a folder.`);
  }
  const { sessions, problems } = readOpencodeFolder(files);
  const top = sessions.filter((session) => session.parentId === undefined || !sessions.some((other) => other.sessionId === session.parentId));
  if (top.length !== 1) {
    const listed = top.map((session) => `${session.sessionId} (${session.name})`).join(', ');
    throw new ImportFormatError(`"${name}" holds ${top.length} opencode sessions${listed ? `: ${listed}` : ''}; Foldlab's command line reads one: export it with "opencode export <session>" and pass that file (the page imports them all).`);
  }
  const session = top[0]!;
  const read = (one: typeof session) => importText(JSON.stringify(one.document, null, 1), { format: 'opencode', fileName: `${one.sessionId}.json` });
  const result = read(session);
  const children = sessions.filter((other) => other.parentId === session.sessionId);
  if (children.length > 0) result.threads = children.map(read);
  for (const problem of problems) result.issues.push({ line: 0, kind: 'malformed', message: `${problem.path}: ${problem.message}; skipped` });
  result.issueCount = (result.issueCount ?? 0) + problems.length;
  return result;
}

/** A Cline / Roo Code task folder: its one task, history and panel messages read together. */
function importClineFolder(files: FolderFile[], name: string): ImportResult {
  const { tasks, problems } = readClineTasks(files, name);
  const first = problems[0];
  if (first !== undefined) throw new ImportFormatError(`"${name}": ${first.path} is ${first.message}.`);
  if (tasks.length !== 1) {
    throw new ImportFormatError(`"${name}" holds ${tasks.length} Cline tasks (${tasks.map((task) => task.taskId).join(', ')}); Foldlab's command line reads one: pass that task's folder (the page imports them all).`);
  }
  const task = tasks[0]!;
  return importText(JSON.stringify(task.document, null, 1), { format: 'cline', fileName: `${task.taskId}.json` });
}

const PROMPTS_DIR = resolve(import.meta.dirname, '../../prompts');

export function loadPrompts(dir = PROMPTS_DIR): PromptLibrary {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.md'))
      .map((file) => [file.slice(0, -3), readFileSync(resolve(dir, file), 'utf8')]),
  );
}
