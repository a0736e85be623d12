// `compact` and `fold` read a branch from its first entry by default, or continue from the last
// compaction the source agent recorded (`--from last-compaction`), and say which in `scope`.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCompact } from './compact.ts';
import { runFold } from './fold.ts';

const PI_COMPACTED = 'public/samples/pi/before-compaction.jsonl';
const base = { file: PI_COMPACTED, strategy: 'pi', options: {}, counter: 'chars4' as const, contextWindow: 200_000 };

describe('compact and fold: where the input starts', () => {
  it('compact --json states its scope: the whole branch by default, the last recorded compaction on request', async () => {
    const whole = await runCompact(base);
    const last = await runCompact({ ...base, from: 'last-compaction' });
    expect(whole.scope).toMatchObject({ from: 'start', calls: 471, branchCalls: 471, sourceCompactions: 2 });
    expect(whole.counts.input).toBe(whole.scope.entries);
    expect(whole.notes[0]).toBe(whole.scope.note);
    expect(last.scope).toMatchObject({ from: 'last-compaction', calls: 177, branchCalls: 471 });
    expect(last.counts.input).toBe(last.scope.entries);
    expect(last.counts.input).toBeLessThan(whole.counts.input);
    expect(last.tokensBefore).toBeLessThan(whole.tokensBefore);
  }, 60_000);

  it('fold states its scope the same way', async () => {
    const whole = await runFold({ file: PI_COMPACTED, options: {}, contextWindow: 200_000 });
    const last = await runFold({ file: PI_COMPACTED, options: {}, contextWindow: 200_000, from: 'last-compaction' });
    expect(whole.scope).toMatchObject({ from: 'start', calls: 471 });
    expect(last.scope).toMatchObject({ from: 'last-compaction', calls: 177 });
    expect(last.tokensBefore).toBeLessThan(whole.tokensBefore);
  }, 60_000);

  it('the command line takes --from and names a wrong value', () => {
    const run = (args: string[]) => spawnSync('node_modules/.bin/tsx', ['src/cli/main.ts', ...args], { encoding: 'utf8' });
    const ok = run(['compact', 'public/samples/pi/v3-small.jsonl', '--strategy', 'pi', '--from', 'last-compaction', '--counter', 'chars4', '--json']);
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as { scope: { from: string } }).scope.from).toBe('last-compaction');
    const bad = run(['compact', 'public/samples/pi/v3-small.jsonl', '--strategy', 'pi', '--from', 'end']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--from must be one of start, last-compaction; got "end"');
  }, 60_000);
});
