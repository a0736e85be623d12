/**
 * L3 (seed 002 §A3, §C1): the rule-based compression a tool result gets when it is written to
 * history. The model reasons over the full observation in the turn it was made; older turns keep
 * only `status`, the tool's `data` cut down by the per-tool rules, and `error` code and message.
 */
import type { Block, Entry, ToolCallBlock, ToolResultBlock } from '../../journal/entry.ts';
import { truncateMiddle } from '../../compaction/serialize.ts';

/** The per-tool limits of seed 002 §A3 ("默认上限"). */
export interface CompressionLimits {
  /** Read: lines of the file content kept. Default 500. Unit: lines. */
  readMaxLines: number;
  /** Grep: matching lines kept (with file name and line number). Default 5. Unit: lines. */
  grepMaxLines: number;
  /** LS / Glob: first entries of a listing kept. Default 10 (the seed: 5-10). Unit: items. */
  listMaxItems: number;
  /** Edit / MultiEdit / Write: snippet lines kept; larger changes keep only the summary. Default 20 (the seed: 20-50). Unit: lines. */
  snippetMaxLines: number;
  /** Bash: last lines of stderr (of a failed command's output) kept. Default 20. Unit: lines. */
  stderrTailLines: number;
}

export const DEFAULT_LIMITS: Readonly<CompressionLimits> = {
  readMaxLines: 500,
  grepMaxLines: 5,
  listMaxItems: 10,
  snippetMaxLines: 20,
  stderrTailLines: 20,
};

/** Unknown tools (the seed's "默认回退策略"): characters of the output kept, both ends. Unit: chars. */
export const FALLBACK_MAX_CHARS = 1000;
/** An unstructured error text is its own message; beyond this it is cut in the middle. Unit: chars. */
export const ERROR_MESSAGE_MAX_CHARS = 2000;
/** One listing, match or summary line; minified files would otherwise defeat the line limits. Unit: chars. */
export const LINE_MAX_CHARS = 500;

export type ToolKind = 'ls' | 'glob' | 'grep' | 'read' | 'edit' | 'write' | 'bash' | 'todo' | 'other';

const KIND_NAMES: ReadonlyArray<readonly [RegExp, ToolKind]> = [
  [/^(ls|list|list_dir|list_directory|list_files)$/i, 'ls'],
  [/^(glob|find_files|file_search)$/i, 'glob'],
  [/^(grep|rg|ripgrep|search|grep_search|search_files)$/i, 'grep'],
  [/^(read|read_file|readfile|view|view_file|open_file|cat|notebookread)$/i, 'read'],
  [/^(edit|multiedit|multi_edit|str_replace|str_replace_editor|str_replace_based_edit_tool|edit_file|replace|notebookedit|apply_patch)$/i, 'edit'],
  [/^(write|write_file|writefile|create_file|create)$/i, 'write'],
  [/^(bash|shell|sh|exec|exec_command|run_command|run_terminal_cmd|terminal|execute|local_shell|powershell|launch-process)$/i, 'bash'],
  [/^(todowrite|todo_write|todo|update_plan)$/i, 'todo'],
];

/** The A3 rule a tool name falls under (MCP prefixes `mcp__server__name` are ignored). */
export function toolKind(name: string | undefined): ToolKind {
  if (!name) return 'other';
  const bare = name.includes('__') ? (name.split('__').pop() ?? name) : name;
  for (const [pattern, kind] of KIND_NAMES) if (pattern.test(bare)) return kind;
  return 'other';
}

const RULES: Readonly<Record<ToolKind, string>> = {
  ls: 'LS: directory + count + first items',
  glob: 'Glob: pattern + match count + first items',
  grep: 'Grep: summary + first matching lines',
  read: 'Read: content with line numbers, capped',
  edit: 'Edit/MultiEdit: change summary + range + key snippet',
  write: 'Write: change summary + created/overwritten',
  bash: 'Bash: summary + stderr tail',
  todo: 'TodoWrite: recap only',
  other: 'fallback: truncated summary',
};

export interface CompressedResult {
  /** The compressed observation: `{"status":…,"data":…,"error":…}` as compact JSON. */
  text: string;
  kind: ToolKind;
  /** Which rule applied, for plan notes. */
  rule: string;
}

function field(input: unknown, names: readonly string[]): unknown {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const name of names) if (record[name] !== undefined) return record[name];
  return undefined;
}

function strField(input: unknown, names: readonly string[]): string | undefined {
  const value = field(input, names);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function clipLine(line: string): string {
  return line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)}…` : line;
}

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}

const NUMBERED = /^\s*(\d+)(?:→|\t)/;

/** Line numbers a `cat -n`-style snippet shows, as "first-last". */
function numberedRange(lines: readonly string[]): string | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (const line of lines) {
    const match = NUMBERED.exec(line);
    if (!match) continue;
    const n = Number(match[1]);
    low = Math.min(low, n);
    high = Math.max(high, n);
  }
  return Number.isFinite(low) ? (low === high ? `${low}` : `${low}-${high}`) : undefined;
}

/** Short description of a long output: its size, first line and last non-empty line. */
function outputSummary(lines: readonly string[]): Record<string, unknown> {
  const nonEmpty = lines.filter((line) => line.trim() !== '');
  if (nonEmpty.length <= 3) return { lines: nonEmpty.length, output: nonEmpty.map(clipLine).join('\n') };
  return { lines: lines.length, first: clipLine(nonEmpty[0]!), last: clipLine(nonEmpty[nonEmpty.length - 1]!) };
}

function todoRecap(input: unknown): string | undefined {
  const todos = field(input, ['todos', 'plan', 'items']);
  if (!Array.isArray(todos)) return undefined;
  const byStatus = new Map<string, number>();
  const active: string[] = [];
  for (const todo of todos) {
    const status = strField(todo, ['status']) ?? 'unknown';
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const text = strField(todo, ['content', 'step', 'text', 'title']);
    if (status === 'in_progress' && text) active.push(clipLine(text));
  }
  const counts = [...byStatus].map(([status, n]) => `${n} ${status}`).join(', ');
  return `${todos.length} todos${counts ? `: ${counts}` : ''}${active.length ? `; in progress: ${active.join(' | ')}` : ''}`;
}

/** `data` for a plain-text tool result (the form Claude Code and most agents record). */
function textData(kind: ToolKind, text: string, call: ToolCallBlock | undefined, limits: CompressionLimits): Record<string, unknown> {
  const lines = splitLines(text);
  const input = call?.input;
  const data: Record<string, unknown> = {};
  const head = (n: number) => {
    if (lines.length > n) data.truncated = true;
    return lines.slice(0, n);
  };
  switch (kind) {
    case 'ls': {
      const dir = strField(input, ['path', 'dir', 'directory']);
      if (dir) data.directory = dir;
      data.items = lines.length;
      data.first = head(limits.listMaxItems).map((line) => clipLine(line.trim()));
      break;
    }
    case 'glob': {
      const pattern = strField(input, ['pattern', 'glob']);
      if (pattern) data.pattern = pattern;
      data.matches = lines.length;
      data.first = head(limits.listMaxItems).map(clipLine);
      break;
    }
    case 'grep': {
      const pattern = strField(input, ['pattern', 'query', 'regex']);
      if (pattern) data.pattern = pattern;
      data.summary = `${lines.length} line${lines.length === 1 ? '' : 's'} of results`;
      data.matches = head(limits.grepMaxLines).map(clipLine);
      break;
    }
    case 'read': {
      const file = strField(input, ['file_path', 'path', 'filePath', 'file', 'target_file', 'notebook_path']);
      if (file) data.file = file;
      const kept = head(limits.readMaxLines);
      const offset = field(input, ['offset', 'start_line']);
      const first = typeof offset === 'number' && offset > 0 ? offset : 1;
      // The seed keeps the snippet "with line numbers": add them when the tool did not.
      const nonEmpty = kept.filter((line) => line.trim() !== '');
      const numbered = nonEmpty.length > 0 && nonEmpty.filter((line) => NUMBERED.test(line)).length * 2 >= nonEmpty.length;
      data.content = (numbered ? kept : kept.map((line, i) => `${String(first + i).padStart(6)}\t${line}`)).join('\n');
      const range = numberedRange(numbered ? kept : []) ?? (kept.length ? `${first}-${first + kept.length - 1}` : undefined);
      if (range) data.range = range;
      if (data.truncated) data.total_lines = lines.length;
      break;
    }
    case 'edit':
    case 'write': {
      const file = strField(input, ['file_path', 'path', 'filePath', 'file', 'target_file', 'notebook_path']);
      if (file) data.file = file;
      data.summary = clipLine(lines[0] ?? '');
      if (kind === 'edit') {
        const edits = field(input, ['edits']);
        data.edits = Array.isArray(edits) ? edits.length : 1;
        data.applied = true;
      } else {
        data.mode = /\bcreated?\b/i.test(text) ? 'created' : /updated|overwr/i.test(text) ? 'overwritten' : 'written';
        const content = strField(input, ['content', 'contents', 'file_text', 'text']);
        if (content !== undefined) data.lines = splitLines(content).length;
      }
      const body = lines.slice(1);
      const range = numberedRange(body);
      if (range) data.range = range;
      // "大 diff 仅保留摘要": a snippet only while it is small.
      if (body.length > limits.snippetMaxLines) data.truncated = true;
      else if (body.length > 0) data.snippet = body.map(clipLine).join('\n');
      break;
    }
    case 'bash':
      Object.assign(data, outputSummary(lines));
      break;
    case 'todo':
      data.recap = todoRecap(input) ?? clipLine(lines[0] ?? '');
      break;
    case 'other': {
      const cut = truncateMiddle(text, FALLBACK_MAX_CHARS);
      data.summary = cut;
      if (cut !== text) data.truncated = true;
      break;
    }
  }
  return data;
}

/** Per-tool limit for lists inside structured `data`. */
function listLimit(kind: ToolKind, limits: CompressionLimits): number {
  switch (kind) {
    case 'grep':
      return limits.grepMaxLines;
    case 'read':
      return limits.readMaxLines;
    case 'edit':
    case 'write':
      return limits.snippetMaxLines;
    case 'bash':
      return limits.stderrTailLines;
    default:
      return limits.listMaxItems;
  }
}

/** Cuts lists and long strings inside structured `data`; state markers (truncated, applied, fallback) survive. */
function structuredData(kind: ToolKind, value: unknown, call: ToolCallBlock | undefined, limits: CompressionLimits): { value: unknown; cut: boolean } {
  const max = listLimit(kind, limits);
  const walk = (node: unknown, key: string): { value: unknown; cut: boolean } => {
    if (typeof node === 'string') {
      const lines = splitLines(node);
      if (kind === 'bash' && key === 'stdout') return { value: outputSummary(lines), cut: lines.length > 3 };
      if (kind === 'bash' && key === 'stderr') return { value: lines.slice(-limits.stderrTailLines).join('\n'), cut: lines.length > limits.stderrTailLines };
      return lines.length > max ? { value: lines.slice(0, max).join('\n'), cut: true } : { value: node, cut: false };
    }
    if (Array.isArray(node)) {
      if (kind === 'todo') return { value: todoRecap({ todos: node }), cut: true };
      let cut = node.length > max;
      const items = node.slice(0, max).map((item) => {
        const inner = walk(item, key);
        cut ||= inner.cut;
        return inner.value;
      });
      return { value: items, cut };
    }
    if (typeof node === 'object' && node !== null) {
      let cut = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        const inner = walk(v, k);
        cut ||= inner.cut;
        out[k] = inner.value;
      }
      if (cut && !('truncated' in out)) out.truncated = true;
      return { value: out, cut };
    }
    return { value: node, cut: false };
  };
  if (kind === 'todo') {
    const recap = todoRecap(value) ?? todoRecap(call?.input);
    if (recap) return { value: { recap }, cut: true };
  }
  return walk(value, '');
}

/** The seed's own tool protocol: `{status, data, error, text, stats, context}` as JSON text. */
function parseStructured(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>).status === 'string') {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: treated as plain text.
  }
  return undefined;
}

function resultText(result: ToolResultBlock): { text: string; images: number } {
  const parts: string[] = [];
  let images = 0;
  for (const part of result.content) {
    if (part.type === 'text') parts.push(part.text);
    else images++;
  }
  return { text: parts.join('\n'), images };
}

/**
 * The history form of one tool result. `call` is the tool_call it answers (its name picks the
 * rule, its input gives the path/pattern); without it the result's own tool name is used, and
 * an unknown tool gets the fallback.
 */
export function compressToolResult(result: ToolResultBlock, call: ToolCallBlock | undefined, limits: CompressionLimits = DEFAULT_LIMITS): CompressedResult {
  const kind = toolKind(call?.name ?? result.toolName);
  const { text, images } = resultText(result);
  const structured = parseStructured(text);
  const out: Record<string, unknown> = {};
  if (structured) {
    // C1: keep status, data (compressed) and error code + message; drop text, stats, context.
    out.status = structured.status;
    if (structured.data !== undefined) out.data = structuredData(kind, structured.data, call, limits).value;
    const error = structured.error;
    if (structured.status === 'error' && error !== undefined) {
      out.error = typeof error === 'object' && error !== null
        ? { code: (error as Record<string, unknown>).code, message: (error as Record<string, unknown>).message }
        : { message: error };
    }
  } else if (result.isError) {
    out.status = 'error';
    const lines = splitLines(text);
    if (kind === 'bash') {
      const exit = /exit(?:ed with)? code[:\s]+(-?\d+)/i.exec(text);
      out.error = { code: exit ? `exit ${exit[1]}` : 'tool_error', message: lines.slice(-limits.stderrTailLines).join('\n') };
      if (lines.length > limits.stderrTailLines) out.data = { lines: lines.length, stderr_tail: limits.stderrTailLines, truncated: true };
    } else {
      out.error = { code: 'tool_error', message: truncateMiddle(text, ERROR_MESSAGE_MAX_CHARS) };
    }
  } else {
    out.status = 'success';
    out.data = textData(kind, text, call, limits);
  }
  if (images > 0) {
    const data = typeof out.data === 'object' && out.data !== null && !Array.isArray(out.data) ? (out.data as Record<string, unknown>) : {};
    out.data = { ...data, images };
  }
  return { text: JSON.stringify(out), kind, rule: RULES[kind] };
}

/** tool_call blocks of the entries by callId (first call wins, as pairing does). */
export function callsById(entries: readonly Entry[]): Map<string, ToolCallBlock> {
  const calls = new Map<string, ToolCallBlock>();
  for (const entry of entries) {
    for (const block of entry.blocks) if (block.type === 'tool_call' && !calls.has(block.callId)) calls.set(block.callId, block);
  }
  return calls;
}

/**
 * A NEW entry whose tool results are replaced by their compressed form (other blocks and the
 * pairing keys unchanged), or undefined when the entry holds no tool result.
 */
export function compressEntry(entry: Entry, calls: ReadonlyMap<string, ToolCallBlock>, limits: CompressionLimits = DEFAULT_LIMITS): { entry: Entry; rules: string[] } | undefined {
  if (!entry.blocks.some((block) => block.type === 'tool_result')) return undefined;
  const rules: string[] = [];
  const blocks: Block[] = entry.blocks.map((block) => {
    if (block.type !== 'tool_result') return block;
    const compressed = compressToolResult(block, calls.get(block.callId), limits);
    if (!rules.includes(compressed.rule)) rules.push(compressed.rule);
    const next: ToolResultBlock = { ...block, content: [{ type: 'text', text: compressed.text }] };
    return next;
  });
  return { entry: { ...entry, blocks }, rules };
}
