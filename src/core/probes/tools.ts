/**
 * What a tool call did, read from its name and input across formats: the files it read or wrote
 * (Claude Code Read/Write/Edit/MultiEdit/NotebookEdit, Codex apply_patch and shell, pi
 * read/write/edit/bash, generic `path`/`file_path`/`filePath` inputs) and the target used to pair
 * a failed run with a later successful one (the file path, or the command modulo whitespace).
 */
import type { ToolCallBlock } from '../journal/entry.ts';
import { capped } from './make.ts';
import { commandKey } from '../reading/targets.ts';
import { shellEffects, type ShellEffect } from './shell.ts';

export type FileKind = ShellEffect['kind'];

/** Characters of an apply_patch body scanned for its `*** … File:` headers (plain line scan). */
const PATCH_SCAN_CHARS = 200_000;

type ToolFamily = 'read' | 'write' | 'edit' | 'delete' | 'shell' | 'patch' | 'other';

const FAMILIES: Array<[ToolFamily, RegExp]> = [
  ['patch', /^(apply_patch|applypatch)$/],
  ['shell', /^(bash|shell|exec_command|exec|local_shell|run_shell_command|run_terminal_cmd|terminal|execute_command|container\.exec|run_command|sh)$/],
  ['read', /^(read|read_file|readfile|view|view_file|open_file|cat|notebookread|read_notebook|get_file_contents)$/],
  ['write', /^(write|write_file|writefile|create|create_file|createfile|save_file|write_to_file)$/],
  ['edit', /^(edit|multiedit|multi_edit|notebookedit|edit_file|editfile|str_replace|str_replace_editor|str_replace_based_edit_tool|replace|replace_in_file|insert|update_file|patch_file)$/],
  ['delete', /^(delete|delete_file|remove_file|rm)$/],
];

/** The family of a tool name (MCP `server__tool` prefixes dropped, case ignored). */
export function toolFamily(name: string): ToolFamily {
  const bare = name.toLowerCase().split('__').pop()!.replace(/^mcp_/, '');
  for (const [family, pattern] of FAMILIES) if (pattern.test(bare)) return family;
  return 'other';
}

/** Parsed input: objects as they are; JSON strings (Codex custom calls) parsed when possible. */
export function inputObject(input: unknown): Record<string, unknown> | undefined {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input === 'string') {
    const trimmed = input.trimStart();
    if (trimmed.startsWith('{') && trimmed.length <= 2_000_000) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The file path an input names (`file_path`, `path`, `filePath`, `notebook_path`, `filename`). */
export function inputPath(input: Record<string, unknown> | undefined): string | undefined {
  if (!input) return undefined;
  const path = str(input.file_path) ?? str(input.filePath) ?? str(input.notebook_path) ?? str(input.path) ?? str(input.filename) ?? str(input.file);
  return path && path.length <= 1000 && !path.includes('\n') ? path : undefined;
}

/**
 * The shell script of a call: `command` as a string or argv (`["bash","-lc","…"]` gives the
 * script), or Codex `cmd`. Capped at `BLOCK_SCAN_CHARS`.
 */
export function shellScript(input: Record<string, unknown> | undefined): string | undefined {
  if (!input) return undefined;
  const command = input.command ?? input.cmd ?? input.script;
  if (typeof command === 'string') return capped(command);
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    const argv = command as string[];
    const dashC = argv.findIndex((part) => part === '-c' || part === '-lc' || part === '-ic');
    if (dashC >= 0 && argv[dashC + 1] !== undefined) return capped(argv[dashC + 1]!);
    return capped(argv.map((part) => (/\s/.test(part) ? `'${part}'` : part)).join(' '));
  }
  return undefined;
}

/** The patch body of a call: raw input text, or an argv/`input`/`patch` string holding `*** Begin Patch`. */
function patchBody(call: ToolCallBlock, input: Record<string, unknown> | undefined): string | undefined {
  if (typeof call.input === 'string' && call.input.includes('*** ')) return call.input;
  for (const value of [input?.input, input?.patch, input?.content]) if (typeof value === 'string' && value.includes('*** ')) return value;
  const command = input?.command;
  if (Array.isArray(command)) for (const part of command) if (typeof part === 'string' && part.includes('*** Begin Patch')) return part;
  if (typeof command === 'string' && command.includes('*** Begin Patch')) return command;
  return undefined;
}

/** Files named by the `*** Add File:` / `*** Update File:` / `*** Delete File:` / `*** Move to:` headers. */
export function patchEffects(body: string): ShellEffect[] {
  const effects: ShellEffect[] = [];
  const text = body.length > PATCH_SCAN_CHARS ? body.slice(0, PATCH_SCAN_CHARS) : body;
  let from = 0;
  while (from < text.length) {
    const at = text.indexOf('*** ', from);
    if (at < 0) break;
    const lineEnd = text.indexOf('\n', at);
    const line = text.slice(at, lineEnd < 0 ? text.length : lineEnd).trim();
    from = lineEnd < 0 ? text.length : lineEnd + 1;
    if (at > 0 && text[at - 1] !== '\n') continue;
    const header = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/.exec(line);
    if (!header) continue;
    const path = header[2]!.trim();
    if (path.length === 0 || path.length > 1000) continue;
    const kind: FileKind = header[1] === 'Add File' ? 'created' : header[1] === 'Delete File' ? 'deleted' : header[1] === 'Move to' ? 'created' : 'modified';
    effects.push({ path, kind });
  }
  return effects;
}

/** Files a call touches, by kind. `resultText` lets Claude `Write` tell "created" from "updated". */
export function callEffects(call: ToolCallBlock, resultText = ''): ShellEffect[] {
  const family = toolFamily(call.name);
  const input = inputObject(call.input);
  const body = family === 'patch' || family === 'shell' || typeof call.input === 'string' ? patchBody(call, input) : undefined;
  if (body !== undefined) return patchEffects(body);
  if (family === 'shell') {
    const script = shellScript(input);
    return script === undefined ? [] : shellEffects(script);
  }
  const path = inputPath(input);
  if (path === undefined) return [];
  switch (family) {
    case 'read':
      return [{ path, kind: 'read' }];
    case 'write': {
      const updated = /\b(updated|overwr[io]te|modified)\b/i.test(resultText.slice(0, 300));
      return [{ path, kind: updated ? 'modified' : 'created' }];
    }
    case 'edit': {
      // The text editor tools (str_replace_editor, str_replace_based_edit_tool) name what they do in `command`.
      const command = typeof input?.command === 'string' ? input.command : undefined;
      return [{ path, kind: command === 'create' ? 'created' : command === 'view' ? 'read' : 'modified' }];
    }
    case 'delete':
      return [{ path, kind: 'deleted' }];
    default: {
      // Unknown tools with a file path: judge by the words of the name, skip searches and listings.
      const bare = call.name.toLowerCase();
      if (/grep|glob|search|find|list|ls|tree|dir/.test(bare)) return [];
      if (/delete|remove/.test(bare)) return [{ path, kind: 'deleted' }];
      if (/write|create|save/.test(bare)) return [{ path, kind: 'created' }];
      if (/edit|replace|patch|update|insert|modify/.test(bare)) return [{ path, kind: 'modified' }];
      if (/read|view|open|cat|show/.test(bare)) return [{ path, kind: 'read' }];
      return [];
    }
  }
}

/**
 * What a call acts on, for pairing a failure with a later success of the same tool: `shell:` plus
 * the command with whitespace collapsed and `root` stripped from absolute paths, or the family
 * plus the file path (also root-relative). Undefined when the call names no target.
 */
export function callTarget(call: ToolCallBlock, root: string | undefined): string | undefined {
  const family = toolFamily(call.name);
  const input = inputObject(call.input);
  const relative = (text: string): string => (root ? text.split(root).join('') : text);
  if (family === 'shell') {
    const script = shellScript(input);
    return script === undefined ? undefined : `shell:${commandKey(relative(script))}`;
  }
  const path = inputPath(input);
  if (path !== undefined) return `${family === 'other' ? call.name.toLowerCase() : family}:${relative(path)}`;
  if (family === 'patch') return `patch:${patchEffects(typeof call.input === 'string' ? call.input : '').map((effect) => relative(effect.path)).join(',')}`;
  return undefined;
}

/** A short label of a call for display: `Bash: uv run pytest …` or `Edit: src/app.ts`. */
export function callLabel(call: ToolCallBlock): string {
  const input = inputObject(call.input);
  const family = toolFamily(call.name);
  const detail = family === 'shell' ? shellScript(input) : inputPath(input);
  return detail ? `${call.name}: ${detail.replace(/\s+/g, ' ').slice(0, 100)}` : call.name;
}
