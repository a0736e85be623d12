// The demo agent's tool calls by phase of a turn (exploring, working, verifying) and each tool's
// call and result as Claude Code records them: Read, Edit, Write, Grep, Glob, TodoWrite, Bash.

import { BIG_FILES, GLOBS, MISSING_FILES, TREE } from './data/repo.ts';
import { gitDiff, gitLog, listing, pytestOutput, vitestOutput } from './command-output.ts';
import { abs, numbered, READ_REMINDER, ROOT, type EditRecord, type Todo, type ToolCall, type ToolContext, type Turn } from './session-shape.ts';

/** A call in the first third of a turn: reading, searching, listing, looking at history. */
export function exploreCall(ctx: ToolContext, turn: Turn): ToolCall {
  const t = turn.task;
  const kind = ctx.r.weighted<string>([
    ['read', 3.5],
    ['read-other', 1],
    ['grep', 3],
    ['glob', 1.2],
    ['ls', 0.8],
    ['git', 0.8],
    ['missing', 0.5],
  ]);
  switch (kind) {
    case 'read':
      return readCall(ctx, ctx.r.pick([...t.files, t.test]));
    case 'read-other':
      return readCall(ctx, ctx.r.pick(TREE.filter((f) => !BIG_FILES.includes(f.path))).path);
    case 'grep':
      return grepCall(ctx, t.symbol, ctx.r.chance(0.3) ? 'files_with_matches' : 'content');
    case 'glob':
      return globCall(ctx);
    case 'ls': {
      const dir = ctx.r.pick(['src', 'src/services', 'src/lib', 'test', 'scripts/etl', 'locales']);
      return bash(turn, `ls -la ${dir}`, `List ${dir}`, listing(ctx, dir));
    }
    case 'git':
      return bash(turn, 'git log --oneline -12', 'Show recent commits', gitLog(ctx, 12));
    default:
      return missingRead(ctx);
  }
}

/** A call in the middle of a turn: editing, testing, re-reading after a failure. */
export function workCall(ctx: ToolContext, turn: Turn): ToolCall {
  const t = turn.task;
  if (turn.lastWasFailure && ctx.r.chance(0.6)) {
    return ctx.r.chance(0.35) ? readCall(ctx, t.test) : editCall(ctx, turn, ctx.r.pick(t.files));
  }
  const kind = ctx.r.weighted<string>([
    ['edit', 4],
    ['test', 3],
    ['read', 1.8],
    ['grep', 0.8],
    ['write', 0.3],
    ['todo', 0.5],
    ['edit-error', 0.3],
    ['tsc', 0.5],
  ]);
  switch (kind) {
    case 'edit':
      return editCall(ctx, turn, ctx.r.chance(0.3) ? t.test : ctx.r.pick(t.files));
    case 'test':
      return testCall(ctx, turn, false);
    case 'read':
      return readCall(ctx, ctx.r.pick([...t.files, t.test]));
    case 'grep':
      return grepCall(ctx, ctx.r.pick([t.symbol, 'LedgerError', 'logger.debug', 'TODO']), 'content');
    case 'write':
      return writeCall(ctx, turn);
    case 'todo':
      return todoWrite(turn, Math.min(3, 1 + Math.floor(turn.index / 4)));
    case 'edit-error':
      return editError(ctx, t.files[0] as string);
    default:
      return tscCall(ctx, turn);
  }
}

/** A call at the end of a turn: the passing test run, the diff, type check and lint. */
export function verifyCall(ctx: ToolContext, turn: Turn): ToolCall {
  turn.failuresLeft = 0;
  const kind = ctx.r.weighted<string>([
    ['test', 3],
    ['diff', 2],
    ['tsc', turn.task.lang === 'ts' ? 1 : 0],
    ['lint', 0.8],
    ['todo', 0.7],
  ]);
  switch (kind) {
    case 'test':
      return testCall(ctx, turn, true);
    case 'diff':
      return bash(turn, ctx.r.chance(0.3) ? 'git diff --stat' : 'git diff', 'Show the changes', gitDiff(ctx, turn));
    case 'tsc':
      return tscCall(ctx, turn);
    case 'lint':
      return turn.task.lang === 'py' ? bash(turn, 'cd scripts/etl && ruff check .', 'Lint the ETL scripts', 'All checks passed!') : bash(turn, 'npm run lint', 'Run ESLint', '\n> ledgerly@0.9.3 lint\n> eslint .\n');
    default:
      return todoWrite(turn, 4);
  }
}

/** A Read of `path`, whole or (for long files, sometimes) a window of it. */
export function readCall(ctx: ToolContext, path: string): ToolCall {
  const text = ctx.repo.content(path);
  const all = ctx.repo.lines(path);
  const input: Record<string, unknown> = { file_path: abs(path) };
  let start = 1;
  let lines = all;
  if (all.length > 70 && ctx.r.chance(0.55)) {
    start = ctx.r.int(1, all.length - 60);
    const limit = ctx.r.pick([40, 60, 80, 100]);
    lines = all.slice(start - 1, start - 1 + limit);
    input.offset = start;
    input.limit = limit;
  }
  const content = numbered(lines, start) + READ_REMINDER;
  return { name: 'Read', input, content, toolUseResult: { type: 'text', file: { filePath: abs(path), content: lines === all ? text : lines.join('\n'), numLines: lines.length, startLine: start, totalLines: all.length } }, durationMs: 60 };
}

function missingRead(ctx: ToolContext): ToolCall {
  const path = ctx.r.pick(MISSING_FILES);
  const msg = `File not found: ${abs(path)}. Current working directory: ${ROOT}`;
  return { name: 'Read', input: { file_path: abs(path) }, content: `<tool_use_error>${msg}</tool_use_error>`, isError: true, toolUseResult: `Error: ${msg}`, durationMs: 20 };
}

function editCall(ctx: ToolContext, turn: Turn, path: string): ToolCall {
  const all = ctx.repo.lines(path);
  let start = ctx.r.int(0, Math.max(0, all.length - 6));
  for (let tries = 0; tries < 8 && (all[start] ?? '').trim() === ''; tries++) start = ctx.r.int(0, Math.max(0, all.length - 6));
  const oldLines = all.slice(start, start + ctx.r.int(2, 5));
  const indent = /^\s*/.exec(oldLines[1] ?? oldLines[0] ?? '')?.[0] ?? '';
  const py = path.endsWith('.py');
  const added = py
    ? [`${indent}${ctx.r.pick([`# ${turn.task.title}.`, `if dry_run:`, `seen.add((txn.txn_id, txn.amount, txn.booked_at))`, `log.info("dropped %d duplicates", dropped)`])}`]
    : [`${indent}${ctx.r.pick([`// ${turn.task.title}: see ${turn.task.test}.`, `if (opts.limit !== undefined && opts.limit > 100) throw new LedgerError('INVALID_LIMIT', 'limit must be <= 100');`, 'const remainder = total - parts.reduce((a, b) => a + b, 0);', `const day = isBusinessDay(date) ? date : previousBusinessDay(date);`])}`];
  const newLines = [...oldLines.slice(0, 1), ...added, ...oldLines.slice(1)];
  turn.edits.push({ path, line: start + 1, oldLines, newLines });
  const snippetStart = Math.max(0, start - 4);
  const after = [...all.slice(snippetStart, start), ...newLines, ...all.slice(start + oldLines.length, start + oldLines.length + 5)];
  const content = `The file ${abs(path)} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(after, snippetStart + 1)}`;
  const oldString = oldLines.join('\n');
  const newString = newLines.join('\n');
  if (turn.lastWasFailure && turn.failuresLeft > 0) turn.failuresLeft--;
  turn.lastWasFailure = false;
  return {
    name: 'Edit',
    input: { file_path: abs(path), old_string: oldString, new_string: newString },
    content,
    toolUseResult: { filePath: abs(path), oldString, newString, structuredPatch: [{ oldStart: start + 1, oldLines: oldLines.length, newStart: start + 1, newLines: newLines.length, lines: [...oldLines.slice(0, 1).map((l) => ` ${l}`), ...added.map((l) => `+${l}`), ...oldLines.slice(1).map((l) => ` ${l}`)] }], userModified: false, replaceAll: false },
    durationMs: 80,
  };
}

function editError(ctx: ToolContext, path: string): ToolCall {
  const msg = ctx.r.chance(0.5) ? 'File has not been read yet. Read it first before writing to it.' : `String to replace not found in file.\nString: const total = parts.reduce((a, b) => a + b);`;
  return { name: 'Edit', input: { file_path: abs(path), old_string: 'const total = parts.reduce((a, b) => a + b);', new_string: 'const total = parts.reduce((a, b) => a + b, 0);' }, content: `<tool_use_error>${msg}</tool_use_error>`, isError: true, toolUseResult: `Error: ${msg}`, durationMs: 15 };
}

function writeCall(ctx: ToolContext, turn: Turn): ToolCall {
  const t = turn.task;
  const py = t.lang === 'py';
  const path = py ? `scripts/etl/tests/test_${t.symbol}_edge_cases.py` : `test/${t.symbol}.edge.test.ts`;
  const body = py
    ? ['from decimal import Decimal', '', `from ${t.files[0]?.split('/').pop()?.replace('.py', '')} import ${t.symbol}`, '', '', ...t.cases.flatMap((c) => [`def ${c}_edge():`, `    assert ${t.symbol}([]) == ${t.expected}`, '', ''])]
    : ["import { describe, expect, it } from 'vitest';", `import { ${t.symbol} } from '../${t.files[0]}';`, '', `describe('${t.suite} edge cases', () => {`, ...t.cases.flatMap((c) => [`  it('${c} (edge)', () => {`, `    expect(${t.symbol}(${ctx.r.pick(['money(0)', "'2024-02-29'", '[]'])})).toEqual(${t.expected});`, '  });', '']), '});'];
  const content = body.join('\n');
  turn.edits.push({ path, line: 1, oldLines: [], newLines: body });
  return { name: 'Write', input: { file_path: abs(path), content }, content: `File created successfully at: ${abs(path)}`, toolUseResult: { type: 'create', filePath: abs(path), content, structuredPatch: [] }, durationMs: 40 };
}

function grepCall(ctx: ToolContext, pattern: string, mode: 'content' | 'files_with_matches'): ToolCall {
  const { hits, files } = grepRepo(ctx, pattern);
  const input: Record<string, unknown> = { pattern, output_mode: mode };
  if (mode === 'content') input['-n'] = true;
  if (ctx.r.chance(0.4)) input.path = abs(ctx.r.pick(['src', 'test', 'scripts/etl']));
  const content = mode === 'content' ? (hits.length > 0 ? hits.join('\n') : 'No matches found') : files.length > 0 ? `Found ${files.length} files\n${files.join('\n')}` : 'No files found';
  return { name: 'Grep', input, content, toolUseResult: { mode, numFiles: files.length, filenames: mode === 'content' ? [] : files, content: mode === 'content' ? content : undefined, numLines: hits.length }, durationMs: 120 };
}

/** Matching lines (at most 20) and files for a literal pattern, over the small files of the repo. */
function grepRepo(ctx: ToolContext, pattern: string): { hits: string[]; files: string[] } {
  const cached = ctx.grepCache.get(pattern);
  if (cached) return cached;
  const hits: string[] = [];
  const files: string[] = [];
  for (const spec of TREE) {
    if (BIG_FILES.includes(spec.path)) continue;
    const lines = ctx.repo.lines(spec.path);
    let found = false;
    for (let i = 0; i < lines.length && hits.length < 20; i++) {
      if ((lines[i] as string).includes(pattern)) {
        found = true;
        hits.push(`${abs(spec.path)}:${i + 1}:${lines[i]}`);
      }
    }
    if (found) files.push(abs(spec.path));
  }
  const result = { hits, files };
  ctx.grepCache.set(pattern, result);
  return result;
}

function globCall(ctx: ToolContext): ToolCall {
  const [pattern, test] = ctx.r.pick(GLOBS);
  const files = TREE.filter((f) => test(f.path)).map((f) => abs(f.path));
  return { name: 'Glob', input: { pattern }, content: files.length > 0 ? files.join('\n') : 'No files found', toolUseResult: { filenames: files, durationMs: ctx.r.int(8, 90), numFiles: files.length, truncated: false }, durationMs: 50 };
}

export function todoWrite(turn: Turn, stage: number): ToolCall {
  const t = turn.task;
  const steps = turn.lang === 'zh'
    ? [[`阅读 ${t.files[0]} 的现有实现`, `正在阅读 ${t.files[0]}`], [`修复 \`${t.symbol}\``, `正在修复 \`${t.symbol}\``], ['补充测试用例', '正在补充测试用例'], ['运行全部测试', '正在运行测试']]
    : turn.lang === 'ja'
    ? [[`${t.files[0]} の現状を確認する`, `${t.files[0]} の現状を確認中`], [`\`${t.symbol}\` を修正する`, `\`${t.symbol}\` を修正中`], ['テストケースを追加する', 'テストケースを追加中'], ['テストをすべて実行する', 'テストを実行中']]
    : [[`Read the current ${t.symbol} implementation`, `Reading the current ${t.symbol} implementation`], [`Fix ${t.symbol} (${t.title.toLowerCase()})`, `Fixing ${t.symbol}`], [`Add tests in ${t.test}`, `Adding tests in ${t.test}`], [t.lang === 'py' ? 'Run pytest' : 'Run npm test and tsc', 'Running the test suite']];
  const oldTodos = turn.todos;
  const todos: Todo[] = steps.map(([content, activeForm], i) => ({ content: content as string, activeForm: activeForm as string, status: i < stage ? 'completed' : i === stage ? 'in_progress' : 'pending' }));
  turn.todos = todos;
  return { name: 'TodoWrite', input: { todos }, content: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable', toolUseResult: { oldTodos, newTodos: todos }, durationMs: 10 };
}

export function bash(_turn: Turn, command: string, description: string, stdout: string, isError = false, durationMs = 900): ToolCall {
  return { name: 'Bash', input: { command, description }, content: stdout === '' ? 'Tool ran without output or errors' : stdout, isError: isError || undefined, toolUseResult: isError ? `Error: ${stdout}` : { stdout, stderr: '', interrupted: false, isImage: false }, durationMs };
}

function tscCall(ctx: ToolContext, turn: Turn): ToolCall {
  if (turn.task.lang === 'py') return bash(turn, 'cd scripts/etl && python -m mypy .', 'Type-check the ETL scripts', 'Success: no issues found in 6 source files');
  if (turn.edits.length > 0 && ctx.r.chance(0.3)) {
    const e = turn.edits[turn.edits.length - 1] as EditRecord;
    const out = `${e.path}(${e.line + 1},${ctx.r.int(5, 40)}): error TS2322: Type 'number | undefined' is not assignable to type 'number'.\n  Type 'undefined' is not assignable to type 'number'.\n\nFound 1 error in ${e.path}:${e.line + 1}\n`;
    return bash(turn, 'npx tsc --noEmit', 'Type-check the project', out, true, 4000);
  }
  return bash(turn, 'npx tsc --noEmit && echo "tsc: ok"', 'Type-check the project', 'tsc: ok', false, 4000);
}

function testCall(ctx: ToolContext, turn: Turn, mustPass: boolean): ToolCall {
  const t = turn.task;
  turn.testRuns++;
  const fail = !mustPass && turn.failuresLeft > 0;
  turn.lastWasFailure = fail;
  const single = ctx.r.chance(0.5);
  const cmd = t.lang === 'py' ? (single ? `cd scripts/etl && python -m pytest ${t.test.replace('scripts/etl/', '')} -q` : 'cd scripts/etl && python -m pytest -q') : single ? `npx vitest run ${t.test}` : 'npm test';
  const out = t.lang === 'py' ? pytestOutput(ctx, t, fail) : vitestOutput(ctx, t, fail, single);
  return bash(turn, cmd, fail || ctx.r.chance(0.5) ? 'Run the tests' : 'Run the test suite', out, fail, ctx.r.int(2_000, 12_000));
}