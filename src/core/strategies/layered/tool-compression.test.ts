import { describe, expect, it } from 'vitest';
import type { ToolCallBlock, ToolResultBlock } from '../../journal/entry.ts';
import { linkEntries, makeEntries } from '../../compaction/testing.ts';
import {
  callsById, compressEntry, compressToolResult, DEFAULT_LIMITS, FALLBACK_MAX_CHARS, toolKind,
} from './tool-compression.ts';

const call = (name: string, input: unknown): ToolCallBlock => ({ type: 'tool_call', callId: 'c1', name, input });
const result = (text: string, isError = false): ToolResultBlock => ({ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text }], isError });
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n');
const parse = (text: string) => JSON.parse(text) as { status: string; data?: Record<string, unknown>; error?: Record<string, unknown> };

describe('toolKind', () => {
  it('maps the seed tools, their common aliases and MCP names; anything else is the fallback', () => {
    expect(['LS', 'Glob', 'Grep', 'Read', 'Edit', 'MultiEdit', 'Write', 'Bash', 'TodoWrite'].map(toolKind))
      .toEqual(['ls', 'glob', 'grep', 'read', 'edit', 'edit', 'write', 'bash', 'todo']);
    expect(toolKind('mcp__fs__read_file')).toBe('read');
    expect(toolKind('exec_command')).toBe('bash');
    expect(toolKind('WebFetch')).toBe('other');
    expect(toolKind(undefined)).toBe('other');
  });
});

describe('compressToolResult (A3 per-tool rules)', () => {
  it('LS keeps the directory, the count and the first items only', () => {
    const out = parse(compressToolResult(result(lines(30, (i) => `  - file${i}.ts`)), call('LS', { path: '/repo/src' })).text);
    expect(out).toEqual({ status: 'success', data: { directory: '/repo/src', items: 30, first: lines(10, (i) => `- file${i}.ts`).split('\n'), truncated: true } });
  });

  it('Glob keeps the pattern, the match count and the first N (listMaxItems)', () => {
    const out = parse(compressToolResult(result(lines(8, (i) => `src/a${i}.ts`)), call('Glob', { pattern: '**/*.ts' }), { ...DEFAULT_LIMITS, listMaxItems: 5 }).text);
    expect(out.data).toEqual({ pattern: '**/*.ts', matches: 8, first: ['src/a1.ts', 'src/a2.ts', 'src/a3.ts', 'src/a4.ts', 'src/a5.ts'], truncated: true });
  });

  it('Grep keeps a summary and the first 5 matching lines with file name and line number', () => {
    const out = parse(compressToolResult(result(lines(12, (i) => `src/x.ts:${i}: const x${i} = 1;`)), call('Grep', { pattern: 'const' })).text);
    expect(out.data).toEqual({ pattern: 'const', summary: '12 lines of results', matches: lines(5, (i) => `src/x.ts:${i}: const x${i} = 1;`).split('\n'), truncated: true });
  });

  it('Read keeps at most 500 numbered lines of the current range', () => {
    const text = lines(600, (i) => `${String(i).padStart(6)}→line ${i}`);
    const out = parse(compressToolResult(result(text), call('Read', { file_path: '/repo/a.ts' })).text);
    const content = (out.data!.content as string).split('\n');
    expect(content).toHaveLength(500);
    expect(content[499]).toBe('   500→line 500');
    expect(out.data).toMatchObject({ file: '/repo/a.ts', range: '1-500', truncated: true, total_lines: 600 });
  });

  it('Read adds line numbers (from the offset) when the tool gave none', () => {
    const out = parse(compressToolResult(result('alpha\nbeta'), call('Read', { file_path: 'a.txt', offset: 41 })).text);
    expect(out.data).toEqual({ file: 'a.txt', content: '    41\talpha\n    42\tbeta', range: '41-42' });
  });

  it('Edit keeps file, change range and a small snippet; a large diff keeps only the summary', () => {
    const snippet = lines(8, (i) => `${String(100 + i).padStart(6)}→code ${i}`);
    const small = parse(compressToolResult(result(`The file a.ts has been updated. Here's a snippet:\n${snippet}`), call('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' })).text);
    expect(small.data).toEqual({ file: 'a.ts', summary: "The file a.ts has been updated. Here's a snippet:", edits: 1, applied: true, range: '101-108', snippet });
    const big = parse(compressToolResult(result(`Updated.\n${lines(60, (i) => `${String(i).padStart(6)}→code`)}`), call('MultiEdit', { file_path: 'a.ts', edits: [{}, {}, {}] })).text);
    expect(big.data).toEqual({ file: 'a.ts', summary: 'Updated.', edits: 3, applied: true, range: '1-60', truncated: true });
  });

  it('Write keeps file, created/overwritten and the size of the written content', () => {
    const out = parse(compressToolResult(result('File created successfully at: /repo/new.py'), call('Write', { file_path: '/repo/new.py', content: lines(70, (i) => `x${i}`) })).text);
    expect(out.data).toEqual({ file: '/repo/new.py', summary: 'File created successfully at: /repo/new.py', mode: 'created', lines: 70 });
  });

  it('Bash keeps only a summary of stdout', () => {
    const out = parse(compressToolResult(result(`collecting\n${lines(40, (i) => `test ${i} PASSED`)}\n=== 40 passed ===`), call('Bash', { command: 'pytest' })).text);
    expect(out).toEqual({ status: 'success', data: { lines: 42, first: 'collecting', last: '=== 40 passed ===' } });
  });

  it('a failed Bash keeps the error with the last 20 lines of output as its message', () => {
    const text = `${lines(50, (i) => `trace ${i}`)}\nError: exit code 2`;
    const out = parse(compressToolResult(result(text, true), call('Bash', { command: 'make' })).text);
    expect(out.status).toBe('error');
    expect(out.error).toEqual({ code: 'exit 2', message: [...lines(50, (i) => `trace ${i}`).split('\n').slice(-19), 'Error: exit code 2'].join('\n') });
    expect(out.data).toEqual({ lines: 51, stderr_tail: 20, truncated: true });
  });

  it('TodoWrite keeps a recap, not the list', () => {
    const todos = [
      { content: 'write parser', status: 'completed' },
      { content: 'wire the CLI', status: 'in_progress' },
      { content: 'secret pending item', status: 'pending' },
    ];
    const text = compressToolResult(result('Todos have been modified successfully.'), call('TodoWrite', { todos })).text;
    expect(parse(text).data).toEqual({ recap: '3 todos: 1 completed, 1 in_progress, 1 pending; in progress: wire the CLI' });
    expect(text).not.toContain('secret pending item');
  });

  it('an unknown tool falls back to a truncated summary', () => {
    const long = 'y'.repeat(5000);
    const out = parse(compressToolResult(result(long), call('WebFetch', { url: 'https://x' })).text);
    expect((out.data!.summary as string).length).toBeLessThanOrEqual(FALLBACK_MAX_CHARS);
    expect(out.data!.truncated).toBe(true);
    expect(compressToolResult(result('short'), undefined).rule).toContain('fallback');
  });

  it('an unstructured error keeps its text as the message', () => {
    const out = parse(compressToolResult(result('String to replace not found in file.', true), call('Edit', { file_path: 'a.ts' })).text);
    expect(out).toEqual({ status: 'error', error: { code: 'tool_error', message: 'String to replace not found in file.' } });
  });
});

describe('compressToolResult (C1 structured results)', () => {
  it('keeps status, data and error code + message; drops text, stats and context', () => {
    const raw = {
      status: 'error',
      data: { path: 'a.ts' },
      error: { code: 'E_NOT_FOUND', message: 'a.ts does not exist', stack: 'at x' },
      text: 'Error: a.ts does not exist (full text)',
      stats: { ms: 12 },
      context: { args: { path: 'a.ts' } },
    };
    expect(parse(compressToolResult(result(JSON.stringify(raw)), call('Read', {})).text)).toEqual({
      status: 'error', data: { path: 'a.ts' }, error: { code: 'E_NOT_FOUND', message: 'a.ts does not exist' },
    });
  });

  it('cuts lists in data to the tool limit and keeps state markers', () => {
    const raw = { status: 'success', data: { matches: Array.from({ length: 9 }, (_, i) => `f.ts:${i}: hit`), applied: true, fallback: false }, text: 'x', stats: {} };
    expect(parse(compressToolResult(result(JSON.stringify(raw)), call('Grep', {})).text)).toEqual({
      status: 'success', data: { matches: ['f.ts:0: hit', 'f.ts:1: hit', 'f.ts:2: hit', 'f.ts:3: hit', 'f.ts:4: hit'], applied: true, fallback: false, truncated: true },
    });
  });
});

describe('compressEntry', () => {
  it('returns a NEW entry with the pairing keys intact and leaves the journal entry untouched', () => {
    const entries = linkEntries(makeEntries([
      { user: 'go' },
      { assistant: '', calls: [{ id: 'k', name: 'Grep', input: { pattern: 'x' } }] },
      { tool: lines(20, (i) => `a.ts:${i}: x`), callId: 'k' },
    ]));
    const before = structuredClone(entries);
    const out = compressEntry(entries[2]!, callsById(entries))!;
    expect(entries).toEqual(before);
    expect(out.entry).not.toBe(entries[2]);
    expect(out.entry.id).toBe('e2');
    const block = out.entry.blocks[0]!;
    expect(block.type === 'tool_result' && block.callId === 'k' && block.callEntryId === 'e1').toBe(true);
    expect(compressEntry(entries[0]!, callsById(entries))).toBeUndefined();
  });
});
