/**
 * GitHub Copilot CLI writes beside a session's `events.jsonl` (in
 * `~/.copilot/session-state/<session id>/`) a `workspace.yaml` of flat `key: value` lines: `id`,
 * `cwd`, `git_root`, `branch`, `client_name`, `name` (the session's title: the first request, or
 * what the user chose with `/rename`, then `user_named: true`), older files `summary`,
 * `summary_count`, `created_at`, `updated_at`. The readers (the page's folder import, the command
 * line) pair it with the log: its name titles the conversation, its id, cwd, branch and creation
 * time fill what the log did not say. Only the flat keys are read, by a small reader: a nested value (indented lines under
 * a key) is passed over, anything else that is not `key: value` is refused with its line.
 */
import { toEpochMs } from './builder.ts';
import { ImportFormatError, type ImportResult } from './types.ts';

export interface CopilotWorkspace {
  id?: string;
  cwd?: string;
  branch?: string;
  /** `name`, or the older `summary`. */
  title?: string;
  createdAt?: string;
}

/** The flat `key: value` lines of a YAML mapping, values unquoted; nested values and comments passed over. */
export function readFlatYaml(text: string, fileName: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.replace(/\s+$/, '');
    if (line === '' || line.startsWith('#') || line === '---' || /^\s/.test(line)) return;
    const match = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (!match) throw new ImportFormatError(`"${fileName}" line ${index + 1}: expected a "key: value" line, got ${JSON.stringify(line.slice(0, 60))}.`, index + 1);
    values.set(match[1]!, scalar(match[2] ?? '', fileName, index + 1));
  });
  return values;
}

function scalar(value: string, fileName: string, line: number): string {
  if (value.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // Reported below.
    }
    throw new ImportFormatError(`"${fileName}" line ${line}: a double-quoted value that does not end where it should: ${JSON.stringify(value.slice(0, 60))}.`, line);
  }
  if (value.startsWith("'")) {
    if (value.length < 2 || !value.endsWith("'")) throw new ImportFormatError(`"${fileName}" line ${line}: a single-quoted value that does not end where it should: ${JSON.stringify(value.slice(0, 60))}.`, line);
    return value.slice(1, -1).replaceAll("''", "'");
  }
  // A plain value ends before a comment.
  return value.replace(/\s+#.*$/, '');
}

/** What Foldlab reads of a `workspace.yaml`. */
export function parseCopilotWorkspace(text: string, fileName: string): CopilotWorkspace {
  const values = readFlatYaml(text, fileName);
  const pick = (key: string) => {
    const value = values.get(key);
    return value === undefined || value === '' || value === '|' || value === '>' ? undefined : value;
  };
  const workspace: CopilotWorkspace = {};
  const id = pick('id');
  if (id) workspace.id = id;
  const cwd = pick('cwd');
  if (cwd) workspace.cwd = cwd;
  const branch = pick('branch');
  if (branch) workspace.branch = branch;
  const title = pick('name') ?? pick('summary');
  if (title) workspace.title = title;
  const created = pick('created_at');
  if (created) workspace.createdAt = created;
  return workspace;
}

/** The session with its workspace applied: the title from it when it has one, the id, cwd, branch and start where the log had none. */
export function withCopilotWorkspace(result: ImportResult, workspace: CopilotWorkspace): ImportResult {
  const meta = { ...result.meta };
  if (workspace.title) meta.title = workspace.title;
  if (workspace.id) meta.sessionId ??= workspace.id;
  if (workspace.cwd) meta.cwd ??= workspace.cwd;
  if (workspace.branch) meta.gitBranch ??= workspace.branch;
  const created = toEpochMs(workspace.createdAt);
  if (created !== undefined) meta.createdAt ??= created;
  return { ...result, meta };
}
