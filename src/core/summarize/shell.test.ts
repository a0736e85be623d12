// Shell reading for the summary: files a command clearly writes (heredocs, redirects, tee, sed -i,
// cp, mv, touch, rm, paths after `cd`), output filters dropped from a command's key, "no match"
// searches, failures read from output, and bounded cost on huge scripts.
import { describe, expect, it } from 'vitest';
import { isNoMatch, outputReportsFailure, shellFileChanges, shellPrograms, withoutOutputFilters } from './shell.ts';

describe('shellFileChanges', () => {
  it('finds files written by heredocs, redirects, tee, sed -i, cp, mv, touch and rm', () => {
    expect(shellFileChanges("cat > /tmp/fix_markdown.py << 'EOF'\nopen('x > y.txt', 'w')\nEOF\npython3 /tmp/fix_markdown.py")).toEqual([{ path: '/tmp/fix_markdown.py', kind: 'created' }]);
    expect(shellFileChanges('echo "a > b" > out.txt && echo more >> log.txt')).toEqual([{ path: 'out.txt', kind: 'created' }, { path: 'log.txt', kind: 'modified' }]);
    expect(shellFileChanges('npm test 2>&1 | tee test.log')).toEqual([{ path: 'test.log', kind: 'created' }]);
    expect(shellFileChanges("sed -i '' 's/a/b/g' packages/tui/test/editor.test.ts")).toEqual([{ path: 'packages/tui/test/editor.test.ts', kind: 'modified' }]);
    expect(shellFileChanges('cp src/a.json ~/.cfg/b.json; mv old.ts new.ts; touch x.md; rm -f ~/.cfg/b.json')).toEqual([
      { path: '~/.cfg/b.json', kind: 'created' },
      { path: 'old.ts', kind: 'deleted' },
      { path: 'new.ts', kind: 'created' },
      { path: 'x.md', kind: 'created' },
      { path: '~/.cfg/b.json', kind: 'deleted' },
    ]);
  });

  it('reads nothing as a write that is not one', () => {
    expect(shellFileChanges('grep -n "a > b" src/a.ts | head -5')).toEqual([]);
    expect(shellFileChanges('npm run check 2>&1 > /dev/null')).toEqual([]);
    expect(shellFileChanges('sed -n 1,20p src/a.ts')).toEqual([]);
    expect(shellFileChanges('cp -r src/ dist/')).toEqual([]);
  });

  it('gives paths after a cd relative to where the script started', () => {
    expect(shellFileChanges("cd packages/coding-agent && sed -i 's/a/b/' src/x.ts && cd ../tui && touch ./y.ts")).toEqual([
      { path: 'packages/coding-agent/src/x.ts', kind: 'modified' },
      { path: 'packages/tui/y.ts', kind: 'created' },
    ]);
  });

  it('is bounded on a huge script', () => {
    const script = `cat > /tmp/big.py <<'EOF'\n${'x = 1 > 2\n'.repeat(50_000)}EOF\ntouch /tmp/after.txt`;
    const started = performance.now();
    const changes = shellFileChanges(script);
    expect(changes[0]).toEqual({ path: '/tmp/big.py', kind: 'created' });
    // The tail past the scanned head is not read: no later write invented from the heredoc body.
    expect(changes.every((change) => change.path.startsWith('/tmp/'))).toBe(true);
    expect(shellFileChanges(`echo ${'a'.repeat(100_000)} > out.txt`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('command keys and outcomes', () => {
  it('drops output filters and 2>&1 from a command', () => {
    expect(withoutOutputFilters('cd pkg && npm run check 2>&1 | grep "error TS" | head -20')).toBe('cd pkg && npm run check');
    expect(withoutOutputFilters('npm run check 2>&1 | tail -5')).toBe('npm run check');
    expect(withoutOutputFilters('git diff | grep x && npm test')).toBe('git diff | grep x && npm test');
    expect(withoutOutputFilters('echo "a | tail"')).toBe('echo "a | tail"');
  });

  it('lists the programs of a script', () => {
    expect(shellPrograms('cd x && FOO=1 npm test 2>&1 | tail -3')).toEqual(['cd', 'npm', 'tail']);
  });

  it('tells a search that found nothing from a failure', () => {
    expect(isNoMatch('grep -n "x" a.ts', 'Command exited with code 1')).toBe(true);
    expect(isNoMatch('grep -n "x" missing.ts', 'grep: missing.ts: No such file or directory')).toBe(false);
    expect(isNoMatch('npm test', '')).toBe(false);
  });

  it('reads failures from the output of commands that do something, not of those that only read', () => {
    expect(outputReportsFailure('npm run check 2>&1 | grep "error TS"', 'src/a.ts(1,2): error TS2345: bad')).toBe(true);
    expect(outputReportsFailure('git diff HEAD~1 a.py | grep x', "fatal: ambiguous argument 'a.py': unknown revision")).toBe(true);
    expect(outputReportsFailure('cat notes.md', 'Error: this is what the notes say')).toBe(false);
    expect(outputReportsFailure('npm test', 'all 12 passed')).toBe(false);
  });
});
