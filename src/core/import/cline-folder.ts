/**
 * Cline and Roo Code task folders read as tasks: each folder holding `api_conversation_history.json`
 * (with `ui_messages.json` beside it when there is one) becomes the document the Cline importer reads,
 * `{taskId, messages, ui_messages}`, named by the folder (Cline names a task's folder by its id).
 */
import type { FolderFile } from './opencode-folder.ts';

const HISTORY = 'api_conversation_history.json';
const UI = 'ui_messages.json';

export interface ClineTask {
  taskId: string;
  document: { taskId: string; messages: unknown[]; ui_messages: unknown[] };
}

/** The JSON files Cline and Roo Code keep in a task folder. */
const TASK_FILES = new Set([HISTORY, UI, 'task_metadata.json', 'context_history.json', 'history_item.json']);

/**
 * Does this list of paths hold Cline / Roo Code tasks: an API history file, and only task files as
 * JSON (so a folder that also holds other transcripts is walked for them instead)?
 */
export function isClineTaskFolder(paths: readonly string[]): boolean {
  const json = paths.filter((path) => path.endsWith('.json'));
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  return json.some((path) => name(path) === HISTORY) && json.every((path) => TASK_FILES.has(name(path)));
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The tasks of the folder, in path order, and the files that could not be read (with why). */
export function readClineTasks(files: readonly FolderFile[], rootName = 'task'): { tasks: ClineTask[]; problems: Array<{ path: string; message: string }> } {
  const problems: Array<{ path: string; message: string }> = [];
  const parse = (file: FolderFile): unknown[] | undefined => {
    try {
      const value: unknown = JSON.parse(file.text);
      if (Array.isArray(value)) return value;
      problems.push({ path: file.path, message: 'not a JSON array' });
    } catch (error) {
      problems.push({ path: file.path, message: `not valid JSON (${(error as Error).message})` });
    }
    return undefined;
  };
  const byFolder = new Map(files.map((file) => [file.path, file]));
  const tasks: ClineTask[] = [];
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    if (file.path !== HISTORY && !file.path.endsWith(`/${HISTORY}`)) continue;
    const messages = parse(file);
    if (!messages) continue;
    const folder = folderOf(file.path);
    const uiFile = byFolder.get(folder ? `${folder}/${UI}` : UI);
    const ui = uiFile ? (parse(uiFile) ?? []) : [];
    const taskId = folder.split('/').pop() || rootName;
    tasks.push({ taskId, document: { taskId, messages, ui_messages: ui } });
  }
  return { tasks, problems };
}
