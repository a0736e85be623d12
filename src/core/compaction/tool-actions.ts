/**
 * What a tool call did, from its name and input (A6, P5): a file viewed, modified, created or
 * deleted, a terminal command, or something else. Shared by the abridged history, pi's file lists
 * and the offline summarizer, so all three agree on what a session touched.
 */
import type { Entry, ToolCallBlock } from '../journal/entry.ts';

export type ActionCategory = 'viewed' | 'modified' | 'created' | 'deleted' | 'command' | 'other';

export interface ToolAction {
  category: ActionCategory;
  tool: string;
  /** File path for file actions. */
  path?: string;
  /** Command line for terminal actions. */
  command?: string;
}

const VIEW = /^(read|read_file|view|view_file|cat|open|open_file|readfile|get_file|ls|list|list_dir|list_files|glob|grep|search|find|rg|notebookread)$/i;
const EDIT = /^(edit|multiedit|multi_edit|str_replace|str_replace_editor|str_replace_based_edit_tool|apply_patch|patch|edit_file|replace|notebookedit|update_file|insert)$/i;
const WRITE = /^(write|write_file|create|create_file|writefile|save_file)$/i;
const DELETE = /^(delete|delete_file|remove|remove_file|rm)$/i;
const SHELL = /^(bash|shell|exec|exec_command|run|run_command|terminal|execute|local_shell|sh|cmd|powershell|launch-process|run_terminal_cmd)$/i;

/** Whether a tool (short name) runs shell commands. */
export function isShellTool(tool: string): boolean {
  return SHELL.test(tool);
}

function field(input: unknown, names: string[]): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.length > 0) return value;
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return (value as string[]).join(' ');
  }
  return undefined;
}

const PATH_FIELDS = ['file_path', 'path', 'filePath', 'filename', 'file', 'notebook_path', 'target_file', 'pattern'];
const COMMAND_FIELDS = ['command', 'cmd', 'commandLine', 'script'];

/** Files an apply_patch body touches: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`. */
function patchActions(tool: string, body: string): ToolAction[] {
  const actions: ToolAction[] = [];
  for (const match of body.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    const kind = match[1];
    const path = (match[2] ?? '').trim();
    actions.push({ tool, path, category: kind === 'Add' ? 'created' : kind === 'Delete' ? 'deleted' : 'modified' });
  }
  return actions;
}

/** The actions one tool call performed (usually one; an apply_patch can touch several files). */
export function toolActions(call: ToolCallBlock): ToolAction[] {
  const tool = call.name.includes('__') ? (call.name.split('__').pop() ?? call.name) : call.name;
  const input = call.input;
  if (typeof input === 'string' && input.includes('*** Begin Patch')) return patchActions(tool, input);
  const patch = field(input, ['patch', 'input']);
  if (patch?.includes('*** Begin Patch')) return patchActions(tool, patch);
  const path = field(input, PATH_FIELDS);
  if (SHELL.test(tool)) {
    const command = field(input, COMMAND_FIELDS) ?? (typeof input === 'string' ? input : undefined);
    if (command?.includes('*** Begin Patch')) return patchActions(tool, command);
    return [{ tool, category: 'command', ...(command ? { command } : {}) }];
  }
  if (VIEW.test(tool)) return [{ tool, category: 'viewed', ...(path ? { path } : {}) }];
  if (EDIT.test(tool)) {
    const sub = field(input, ['command']);
    if (sub === 'create') return [{ tool, category: 'created', ...(path ? { path } : {}) }];
    if (sub === 'view') return [{ tool, category: 'viewed', ...(path ? { path } : {}) }];
    return [{ tool, category: 'modified', ...(path ? { path } : {}) }];
  }
  if (WRITE.test(tool)) return [{ tool, category: 'created', ...(path ? { path } : {}) }];
  if (DELETE.test(tool)) return [{ tool, category: 'deleted', ...(path ? { path } : {}) }];
  return [{ tool, category: 'other', ...(path ? { path } : {}) }];
}

/** Every action of every tool call in the entries, in order. */
export function entryActions(entries: readonly Entry[]): ToolAction[] {
  const out: ToolAction[] = [];
  for (const entry of entries) {
    for (const block of entry.blocks) if (block.type === 'tool_call') out.push(...toolActions(block));
  }
  return out;
}

/** pi-style file lists (P5): files read, and files modified (written, edited, created, deleted). */
export function fileLists(actions: readonly ToolAction[]): { read: string[]; modified: string[] } {
  const read = new Set<string>();
  const modified = new Set<string>();
  for (const action of actions) {
    if (!action.path) continue;
    if (action.category === 'viewed' && action.tool.toLowerCase() !== 'grep' && action.tool.toLowerCase() !== 'glob') read.add(action.path);
    if (action.category === 'modified' || action.category === 'created' || action.category === 'deleted') modified.add(action.path);
  }
  // A file modified is not also listed as only read.
  for (const path of modified) read.delete(path);
  return { read: [...read].sort(), modified: [...modified].sort() };
}
