// What the demo session's shell commands print: vitest and pytest runs, `ls -la`, `git log`,
// `git status` and `git diff` over the turn's edits.

import { TREE } from './data/repo.ts';
import type { Task } from './data/tasks.ts';
import { NOUNS } from './data/words.ts';
import { type Rng, utf8Length } from './rng.ts';
import { abs, ROOT, type ToolContext, type Turn } from './session-shape.ts';

export function vitestOutput(ctx: ToolContext, t: Task, fail: boolean, single: boolean): string {
  const out: string[] = single ? [] : ['', '> ledgerly@0.9.3 test', '> vitest run', ''];
  out.push(` RUN  v3.2.4 ${ROOT}`, '');
  const files = single ? [t.test] : TREE.filter((f) => f.kind === 'test-ts').map((f) => f.path);
  let total = 0;
  let failed = 0;
  for (const file of files) {
    const n = ctx.r.int(6, 24);
    total += n;
    if (fail && file === t.test) {
      const k = ctx.r.int(1, Math.min(2, t.cases.length));
      failed += k;
      out.push(` ❯ ${file} (${n} tests | ${k} failed) ${ctx.r.int(8, 90)}ms`);
      for (let i = 0; i < k; i++) out.push(`   × ${t.suite} > ${t.cases[i]} ${ctx.r.int(1, 20)}ms`, `     → expected ${t.received} to ${ctx.r.pick(['deeply equal', 'be'])} ${t.expected}`);
    } else {
      out.push(` ✓ ${file} (${n} tests) ${ctx.r.int(3, 120)}ms`);
    }
  }
  if (fail) {
    out.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failed} ⎯⎯⎯⎯⎯⎯⎯`, '', ` FAIL  ${t.test} > ${t.suite} > ${t.cases[0]}`);
    const line = ctx.r.int(20, 90);
    if (t.thrown) {
      out.push(t.thrown, ` ❯ ${t.symbol} ${t.files[0]}:${ctx.r.int(20, 120)}:${ctx.r.int(5, 40)}`, ` ❯ ${t.test}:${line}:${ctx.r.int(5, 30)}`, '', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯', 'Stack trace:');
      out.push(`    at ${t.symbol} (${abs(t.files[0] as string)}:${ctx.r.int(20, 120)}:${ctx.r.int(5, 40)})`, `    at Object.<anonymous> (${abs(t.test)}:${line}:${ctx.r.int(5, 30)})`, `    at runTest (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:781:11)`, `    at runSuite (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:909:15)`, `    at runFiles (file://${ROOT}/node_modules/@vitest/runner/dist/index.js:958:5)`);
    } else {
      out.push(`AssertionError: expected ${t.received} to deeply equal ${t.expected}`, '', '- Expected', '+ Received', '', `- ${t.expected}`, `+ ${t.received}`, '', ` ❯ ${t.test}:${line}:${ctx.r.int(10, 40)}`);
      out.push(`    ${line - 2}|   it('${t.cases[0]}', () => {`, `    ${line - 1}|     const input = money(100);`, `    ${line}|     expect(${t.symbol}(input, [1, 1, 1])).toEqual(${t.expected});`, `       |                                       ^`, `    ${line + 1}|   });`);
    }
    out.push('', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯', '');
  }
  out.push('', ` Test Files  ${fail ? `1 failed | ${files.length - 1} passed` : `${files.length} passed`} (${files.length})`, `      Tests  ${fail ? `${failed} failed | ${total - failed} passed` : `${total} passed`} (${total})`, `   Start at  ${new Date(ctx.now).toISOString().slice(11, 19)}`, `   Duration  ${(ctx.r.int(600, 4000) / 1000).toFixed(2)}s (transform ${ctx.r.int(100, 600)}ms, setup 0ms, collect ${ctx.r.int(200, 900)}ms, tests ${ctx.r.int(30, 900)}ms, environment 0ms, prepare ${ctx.r.int(100, 500)}ms)`, '');
  return out.join('\n');
}

export function pytestOutput(ctx: ToolContext, t: Task, fail: boolean): string {
  const n = ctx.r.int(18, 40);
  const out = ['============================= test session starts ==============================', 'platform linux -- Python 3.12.11, pytest-8.4.2, pluggy-1.6.0', `rootdir: ${ROOT}/scripts/etl`, 'configfile: pyproject.toml', 'testpaths: tests', `collected ${n} items`, ''];
  const k = fail ? 1 : 0;
  out.push(`tests/test_import_rates.py ${'.'.repeat(ctx.r.int(6, 12))}`, `tests/test_reconcile.py ${'.'.repeat(ctx.r.int(6, 14))}${fail ? 'F' : ''}`, '');
  if (fail) {
    const line = ctx.r.int(30, 120);
    out.push('=================================== FAILURES ===================================', `_______________________ ${t.cases[0]} _______________________`, '');
    out.push(`transactions = [BankTransaction(txn_id='T1000', amount=Decimal('120.50'), booked_at='2026-02-03'), BankTransaction(txn_id='T1000', amount=Decimal('120.50'), booked_at='2026-02-03')]`);
    out.push('caplog = <_pytest.logging.LogCaptureFixture object at 0x7f3a2c1d5e80>', '', `    def ${t.cases[0]}(transactions, caplog):`, `        result = ${t.symbol}(transactions)`, `>       assert len(result) == ${t.expected}`, `E       AssertionError: assert ${t.received} == ${t.expected}`, `E        +  where ${t.received} = len([...])`, '', `${t.test.replace('scripts/etl/', '')}:${line}: AssertionError`);
    out.push('------------------------------ Captured log call -------------------------------', `INFO     ${t.files[0]?.split('/').pop()?.replace('.py', '')}:${t.files[0]?.split('/').pop()}:${ctx.r.int(20, 90)} matched ${t.received} payments`);
    out.push('=========================== short test summary info ============================', `FAILED ${t.test.replace('scripts/etl/', '')}::${t.cases[0]} - AssertionError: assert ${t.received} == ${t.expected}`);
  }
  out.push(`${fail ? `========================= ${k} failed, ${n - k} passed` : `============================== ${n} passed`} in ${(ctx.r.int(200, 3000) / 1000).toFixed(2)}s ==============================`);
  return out.join('\n');
}

export function listing(ctx: ToolContext, dir: string): string {
  const entries = TREE.filter((f) => f.path.startsWith(`${dir}/`)).map((f) => f.path.slice(dir.length + 1));
  const names = [...new Set(entries.map((e) => (e.includes('/') ? `${e.split('/')[0]}/` : e)))];
  const out = [`total ${names.length * 8}`, 'drwxr-xr-x  6 dev dev 4096 Mar  2 08:41 .', 'drwxr-xr-x 12 dev dev 4096 Mar  2 08:40 ..'];
  for (const name of names) {
    const isDir = name.endsWith('/');
    const size = isDir ? 4096 : utf8Length(ctx.repo.content(`${dir}/${name}`));
    out.push(`${isDir ? 'drwxr-xr-x' : '-rw-r--r--'}  1 dev dev ${String(size).padStart(6)} Feb ${String(ctx.r.int(10, 28)).padStart(2)} ${String(ctx.r.int(8, 19)).padStart(2, '0')}:${String(ctx.r.int(0, 59)).padStart(2, '0')} ${name.replace(/\/$/, '')}`);
  }
  return out.join('\n');
}

export function gitLog(ctx: ToolContext, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${ctx.r.hex(7)} ${ctx.r.pick(['fix', 'feat', 'chore', 'refactor', 'test', 'docs'])}(${ctx.r.pick(['money', 'currency', 'routes', 'etl', 'tax', 'i18n', 'billing'])}): ${commitSubject(ctx.r)}`);
  return out.join('\n');
}

export function gitStatus(turn: Turn): string {
  const paths = [...new Set(turn.edits.map((e) => e.path))];
  return paths.length > 0 ? paths.map((p) => (p.includes('edge') ? `?? ${p}` : ` M ${p}`)).join('\n') : '';
}

export function gitDiff(ctx: ToolContext, turn: Turn): string {
  if (turn.edits.length === 0) return '';
  const out: string[] = [];
  for (const e of turn.edits.slice(-6)) {
    out.push(`diff --git a/${e.path} b/${e.path}`, `index ${ctx.r.hex(7)}..${ctx.r.hex(7)} 100644`, `--- a/${e.path}`, `+++ b/${e.path}`);
    out.push(`@@ -${e.line},${e.oldLines.length} +${e.line},${e.newLines.length} @@`);
    const oldSet = new Set(e.oldLines);
    for (const l of e.newLines) out.push(oldSet.has(l) ? ` ${l}` : `+${l}`);
  }
  return out.join('\n');
}

/** A one-line commit subject. */
export function commitSubject(r: Rng): string {
  return `${r.pick(['handle', 'fix', 'add', 'remove', 'rename', 'simplify', 'cache'])} ${r.pick(NOUNS)} ${r.pick(['rounding', 'lookup', 'pagination', 'validation', 'dedupe', 'logging', 'edge cases'])}`;
}
