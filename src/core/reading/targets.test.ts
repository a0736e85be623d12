import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import { extractProbes } from '../probes/extract.ts';
import { failedTarget, shellTargets } from './targets.ts';

const errorsOf = (specs: Spec[]) => extractProbes(linkEntries(makeEntries(specs))).filter((probe) => probe.category === 'error');
const run = (id: string, command: string): Spec => ({ assistant: '', calls: [{ id, name: 'Bash', input: { command } }] });

describe('what a shell command works on', () => {
  it('keys a command by its directory, program, subcommand and operands, not by its long flags', () => {
    expect(shellTargets('git diff HEAD~1 src/a.py | grep -A5 x')).toEqual(['|git diff src/a.py']);
    expect(shellTargets('git diff -- src/a.py')).toEqual(['|git diff src/a.py']);
    expect(shellTargets('npm test -- --pool=threads')).toEqual(shellTargets('npm test -s'));
    expect(shellTargets('uv run pytest -m unit -v')).toEqual(['|uv run pytest -m unit']);
    expect(shellTargets('cd web && npm run build 2>&1 | tail -3')).toEqual(['web|step:build']);
    expect(shellTargets('cd web && npx tsc --noEmit')).toEqual(['web|step:typecheck']);
    expect(shellTargets('mkdir -p ~/t && cp $(npm root -g)/pkg/dark.json ~/t/custom.json')).toEqual(['|cp ~/t/custom.json']);
    expect(shellTargets('git add . && git commit -m "Release v1"')).toEqual(['|git add', '|git commit -m Release v1']);
    expect(shellTargets('grep -A 3 "function applyBg" src/wrap.ts')).toEqual(['|grep applyBg']);
  });

  it('gives no key to a segment that still pipes into a program: its status is the last program\'s', () => {
    expect(shellTargets('npm run check 2>&1 | grep "error TS" | wc -l')).toEqual([]);
  });

  it('takes the failed command as the last one, and drops the directory when the cd itself failed', () => {
    expect(failedTarget('cd test && python -c "print(1)"', '(eval):cd:1: no such file or directory: test')).toBe('|python -c print(1)');
    expect(failedTarget('cd test && python -c "print(1)"', 'Traceback (most recent call last)')).toBe('test|python -c print(1)');
  });
});

describe('error status on real patterns', () => {
  it('resolves a failure when the same target later succeeds with other flags, setup or path spelling', () => {
    const probes = errorsOf([
      run('a', 'git diff HEAD~1 src/a.py'),
      { tool: "fatal: ambiguous argument 'src/a.py': unknown revision", callId: 'a', error: true },
      run('b', 'git diff -- src/a.py'),
      { tool: '', callId: 'b' },
      run('c', 'cd /repo && git commit -m "Release v1"'),
      { tool: 'pre-commit: error TS2345: bad argument\nexit code 1', callId: 'c', error: true },
      run('d', 'cd /repo && git add . && git commit -m "Release v1"'),
      { tool: '[main 45ffe0a] Release v1', callId: 'd' },
      run('e', 'cd pkg && npx tsc --noEmit src/x.ts'),
      { tool: 'src/x.ts(1,1): error TS1343: import.meta', callId: 'e', error: true },
      run('f', 'cd pkg && npm run check 2>&1 | grep "error TS" | wc -l'),
      { tool: '3', callId: 'f' },
      run('g', 'cd pkg && npm run check 2>&1 | tail -3'),
      { tool: 'ok', callId: 'g' },
    ]);
    expect(probes.map((probe) => [probe.entryIndex, probe.kind, probe.resolvedAt])).toEqual([
      [1, 'resolved', 3],
      [5, 'resolved', 7],
      // The count piped to wc (#11) proves nothing; the clean check (#13) resolves the type error.
      [9, 'resolved', 13],
    ]);
  });

  it('keeps an abandoned script open: another script is another target', () => {
    const probes = errorsOf([
      run('a', 'python -c "import x; x.load()"'),
      { tool: 'Traceback (most recent call last)\nImportError: cannot import name load', callId: 'a', error: true },
      run('b', 'python -c "import x; x.other()"'),
      { tool: 'ok', callId: 'b' },
    ]);
    expect(probes.map((probe) => probe.kind)).toEqual(['open']);
  });

  it('reads "Error: …" answers of function tools as failures, resolved by a later success of the same function', () => {
    const probes = errorsOf([
      { assistant: '', calls: [{ id: 'a', name: 'book_reservation', input: { amount: 255 } }] },
      { tool: 'Error: payment amount does not add up, total price is 305, but paid 255', callId: 'a' },
      { assistant: '', calls: [{ id: 'b', name: 'book_reservation', input: { amount: 305 } }] },
      { tool: '{"reservation_id": "HATHAT"}', callId: 'b' },
      { assistant: '', calls: [{ id: 'c', name: 'get_user', input: { id: 'x' } }] },
      { tool: 'User not found: error codes are listed below', callId: 'c' },
    ]);
    expect(probes.map((probe) => [probe.entryIndex, probe.kind, probe.resolvedAt])).toEqual([[1, 'resolved', 3]]);
    expect(probes[0]!.text).toContain('payment amount does not add up');
  });

  it('takes the same error line and failure count shown again by another command as the same error', () => {
    const probes = errorsOf([
      run('a', 'npm run check'),
      { tool: 'test/a.ts(28,2): error TS2739: missing properties\nnpm error code 2', callId: 'a', error: true },
      run('b', 'npx tsc --noEmit --skipLibCheck'),
      { tool: 'test/a.ts(28,2): error TS2739: missing properties', callId: 'b', error: true },
      run('c', 'pytest t.py'),
      { tool: 'FAILED t.py::test_a\n3 failed', callId: 'c', error: true },
      run('d', 'pytest t.py'),
      { tool: 'FAILED t.py::test_a\n1 failed, 5 passed', callId: 'd', error: true },
    ]);
    expect(probes.map((probe) => probe.entryIndex)).toEqual([1, 5, 7]);
  });
});
