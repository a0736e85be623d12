// The demo session's rare long tool outputs (20–60 KB): a big file read whole, a verbose test run,
// a JSON log tail, or `git log -p`.

import { BIG_FILES, TREE } from './data/repo.ts';
import { ERROR_CODES, NOUNS, PURPOSES, VERBS } from './data/words.ts';
import { commitSubject } from './command-output.ts';
import { cap } from './rng.ts';
import { abs, numbered, READ_REMINDER, ROOT, type ToolCall, type ToolContext, type Turn } from './session-shape.ts';
import { bash, readCall } from './tool-calls.ts';

/** One 20–60 KB output: a big file read, a verbose test run, a long log or `git log -p`. */
export function longOutput(ctx: ToolContext, turn: Turn): ToolCall {
  const kind = ctx.r.weighted<string>([
    ['big-read', 3],
    ['verbose', 1],
    ['log', 1],
    ['gitlog', 1],
  ]);
  if (kind === 'big-read') {
    const path = ctx.r.pick(BIG_FILES);
    const call = readCall(ctx, path);
    // Big files are read whole, even when readCall chose a window.
    if (call.input.offset !== undefined) {
      const lines = ctx.repo.lines(path);
      return { ...call, input: { file_path: abs(path) }, content: numbered(lines, 1) + READ_REMINDER, toolUseResult: { type: 'text', file: { filePath: abs(path), content: lines.join('\n'), numLines: lines.length, startLine: 1, totalLines: lines.length } } };
    }
    return call;
  }
  const target = ctx.r.int(20_000, 60_000);
  const out: string[] = [];
  let size = 0;
  const push = (...lines: string[]): void => {
    for (const l of lines) {
      out.push(l);
      size += l.length + 1;
    }
  };
  if (kind === 'verbose') {
    push(` RUN  v3.2.4 ${ROOT}`);
    while (size < target) {
      const file = ctx.r.pick(TREE.filter((f) => f.kind === 'test-ts')).path;
      push(` ✓ ${file} > ${ctx.r.pick(NOUNS)} > ${ctx.r.pick(['returns', 'rejects', 'keeps', 'handles', 'rounds', 'formats'])} ${ctx.r.pick(NOUNS)}s ${ctx.r.pick(PURPOSES)} ${ctx.r.int(0, 40)}ms`);
    }
    push(` Test Files  7 passed (7)`);
    return bash(turn, 'npx vitest run --reporter=verbose', 'Run all tests with verbose output', out.join('\n'), false, 9000);
  }
  if (kind === 'log') {
    const d = new Date(ctx.now - 86_400_000);
    while (size < target) {
      d.setTime(d.getTime() + ctx.r.int(50, 4000));
      const level = ctx.r.weighted<string>([['info', 8], ['debug', 4], ['warn', 1], ['error', 0.3]]);
      push(JSON.stringify({ level, time: d.toISOString(), pid: 4127, msg: `${ctx.r.pick(VERBS)} ${ctx.r.pick(NOUNS)}`, id: `${ctx.r.pick(['inv', 'cus', 'pay'])}_${ctx.r.hex(10)}`, ms: ctx.r.int(1, 900), ...(level === 'error' ? { err: { type: 'LedgerError', code: ctx.r.pick(ERROR_CODES), stack: `LedgerError: ${ctx.r.pick(ERROR_CODES)}\n    at ${ctx.r.pick(VERBS)}${cap(ctx.r.pick(NOUNS))} (${abs('src/services/billing.ts')}:${ctx.r.int(10, 300)}:${ctx.r.int(3, 30)})` } } : {}) }));
    }
    return bash(turn, 'tail -n 2000 logs/api.log', 'Look at the recent API log', out.join('\n'), false, 300);
  }
  while (size < target) {
    push(`commit ${ctx.r.hex(40)}`);
    push(`Author: ${ctx.r.pick(['Mika Tanaka <mika@ledgerly.dev>', 'Sam Ortiz <sam@ledgerly.dev>', 'Li Wei <li.wei@ledgerly.dev>'])}`);
    push(`Date:   ${new Date(ctx.now - ctx.r.int(1, 90) * 86_400_000).toUTCString()}`);
    push('', `    ${commitSubject(ctx.r)}`, '');
    const path = ctx.r.pick(TREE.filter((f) => f.kind === 'ts')).path;
    const lines = ctx.repo.lines(path);
    const at = ctx.r.int(0, Math.max(0, lines.length - 20));
    push(`diff --git a/${path} b/${path}`);
    push(`--- a/${path}`);
    push(`+++ b/${path}`);
    push(`@@ -${at + 1},12 +${at + 1},13 @@`);
    for (const l of lines.slice(at, at + 12)) push(ctx.r.chance(0.15) ? `-${l}` : ` ${l}`);
    push(`+${lines[at + 3] ?? ''} // ${commitSubject(ctx.r)}`);
  }
  return bash(turn, `git log -p -20 -- src`, 'Show recent history with patches', out.join('\n'), false, 400);
}