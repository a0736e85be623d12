import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_WEIGHTS, weightedRetention } from '../core/sweep/score.ts';
import { runEval } from './eval.ts';
import { parseSweepArgs } from './sweep-args.ts';
import { formatSweep, progressLine } from './sweep-main.ts';
import { runSweepCommand, type SweepArgs } from './sweep.ts';
import { splitTasks } from './sweep-job.ts';

const CODEX = 'public/samples/codex/schema-coverage.jsonl';
const PI_SMALL = 'public/samples/pi/v3-small.jsonl';
const CLAUDE_DAG = 'public/samples/claude-code/dag_compact_after_rewind.jsonl';

const base: SweepArgs = { paths: [CODEX], strategy: 'pi', vary: [], options: {}, counter: 'chars4', contextWindow: 3000, weights: { ...DEFAULT_RETENTION_WEIGHTS }, jobs: 1 };

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'foldlab-sweep-'));
  mkdirSync(join(dir, 'b'));
  copyFileSync(CODEX, join(dir, 'codex.jsonl'));
  copyFileSync(PI_SMALL, join(dir, 'b', 'pi.jsonl'));
  copyFileSync(CLAUDE_DAG, join(dir, 'b', 'claude.jsonl'));
  return dir;
}

describe('cli sweep', () => {
  it('a one-point sweep gives the figures eval gives for that configuration', async () => {
    const options = { reserveTokens: 1000, keepRecentTokens: 300 };
    const { result, sessions } = await runSweepCommand({ ...base, vary: ['reserveTokens=1000', 'keepRecentTokens=300'] });
    const evalReport = await runEval({ paths: [CODEX], configs: [{ strategy: 'pi', options }], counter: 'chars4', contextWindow: 3000, jobs: 1, branches: 'last' });
    const row = evalReport.files[0]!.strategies[0]!;
    const point = result.points[0]!;
    expect(sessions).toEqual([CODEX]);
    expect(row.compactions).toBeGreaterThan(0);
    expect(point).toMatchObject({ tokensPerTask: row.tokensPerTask, ratioToUncompacted: row.ratioToUncompacted, probes: row.probes, overflowCalls: row.overflowCalls, compactions: row.compactions });
    expect(point.retention).toBe(weightedRetention(row.probes, DEFAULT_RETENTION_WEIGHTS));
  }, 60_000);

  it('prints the issue\'s --json shape, and the same result with --jobs 2 as with one thread', async () => {
    const dir = folder();
    const args = { ...base, paths: [dir], vary: ['reserveTokens=800..2000:2', 'keepRecentTokens=200..600:2'] };
    const one = await runSweepCommand(args);
    const progress: number[] = [];
    const two = await runSweepCommand({ ...args, jobs: 2 }, (done) => progress.push(done));
    expect(one.sessions.map((name) => name.split('/').slice(-2).join('/'))).toEqual(['b/claude.jsonl', 'b/pi.jsonl', expect.stringMatching(/\/codex\.jsonl$/)]);
    expect(two.result).toEqual(one.result);
    expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const json = JSON.parse(formatSweep(one, 'json', '')) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['strategy', 'points', 'pareto', 'recommended', 'reason', 'agentConfig']);
    expect(Object.keys((json.points as object[])[0]!)).toEqual(['options', 'tokensPerTask', 'ratioToUncompacted', 'retention', 'probes', 'overflowCalls', 'compactions']);
    expect(json.agentConfig).toMatchObject({ agent: 'pi', file: '~/.pi/agent/settings.json' });
    expect(one.result.reason).toMatch(/ over 3 sessions\.$/);
  }, 120_000);

  it('writes CSV, Markdown and a table with the recommendation and the agent block', async () => {
    const report = await runSweepCommand({ ...base, vary: ['keepRecentTokens=200,600'] });
    const csv = formatSweep(report, 'csv', '').split('\n');
    expect(csv[0]).toBe('point,keepRecentTokens,tokens per task,ratio to uncompacted,retention,overflow calls,compactions,artifact,constraint,task,error,identifier,decision,front,recommended,errors');
    expect(csv).toHaveLength(3);
    const md = formatSweep(report, 'md', 'task=3');
    expect(md).toContain('| point | keepRecentTokens | tokens per task |');
    expect(md).toContain(`**Recommended:** point ${report.result.recommended}. ${report.result.reason}`);
    expect(md).toContain('```json\n{\n  "compaction"');
    const text = formatSweep(report, 'text', 'task=3');
    expect(text).toContain(`recommended: point ${report.result.recommended}.`);
    expect(text).toContain('Use in pi: ~/.pi/agent/settings.json');
  }, 60_000);

  it('a strategy that is no agent\'s own hands back no block', async () => {
    const { result } = await runSweepCommand({ ...base, strategy: 'sliding-window', vary: ['windowSize=2..6:2'] });
    expect(result.points).toHaveLength(2);
    expect(result.agentConfig).toBeUndefined();
  }, 60_000);

  it('refuses a bad command line with what was wrong', async () => {
    expect(() => parseSweepArgs([CODEX, '--vary', 'a=1..2'])).toThrow('sweep needs --strategy, e.g. --strategy pi');
    expect(() => parseSweepArgs([CODEX, '--strategy', 'pi'])).toThrow('sweep needs at least one --vary, e.g. --vary keepRecentTokens=2000..20000:5');
    expect(() => parseSweepArgs(['--strategy', 'pi', '--vary', 'enabled'])).toThrow('sweep needs at least one <file|folder>');
    expect(() => parseSweepArgs([CODEX, '--strategy', 'pi', '--vary', 'enabled', '--jobs', '0'])).toThrow('--jobs must be a whole number >= 1; got "0"');
    expect(() => parseSweepArgs([CODEX, '--strategy', 'pi', '--vary', 'enabled', '--counter', 'words'])).toThrow(/^--counter: Unknown token counter "words"/);
    expect(() => parseSweepArgs([CODEX, '--strategy', 'pi', '--vary', 'enabled', '--tolerance', '2'])).toThrow('--tolerance must be a number from 0 to 1 (retention, absolute); got "2"');
    expect(() => parseSweepArgs([CODEX, '--strategy', 'pi', '--vary', 'enabled', '--weights', 'files=1'])).toThrow('--weights: unknown probe category "files"');
    expect(parseSweepArgs([CODEX, '--strategy', 'pi', '--vary', 'enabled', '--random', '5', '--weights', 'task=5', '--csv'])).toMatchObject({ random: 5, output: 'csv', weights: { ...DEFAULT_RETENTION_WEIGHTS, task: 5 } });
    await expect(runSweepCommand({ ...base, vary: ['keepRecent=1..2'] })).rejects.toThrow('--vary keepRecent=1..2: unknown option "keepRecent"');
    await expect(runSweepCommand({ ...base, paths: [mkdtempSync(join(tmpdir(), 'foldlab-sweep-empty-'))], vary: ['enabled'] })).rejects.toThrow(/^No session with a model call found under /);
  });

  it('exits with code 2 and the reason on an unknown strategy, a bad range or no session', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sweep', ...args], { encoding: 'utf8' });
    const unknown = run([CODEX, '--strategy', 'nope', '--vary', 'x=1..2']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown strategy "nope": use one of /);
    const range = run([CODEX, '--strategy', 'pi', '--vary', 'reserveTokens=0..100']);
    expect(range.status).toBe(2);
    expect(range.stderr).toBe('--vary reserveTokens=0..100: Option reserveTokens must be a whole number from 256 to 1000000 (tokens); got "0".\n');
    const none = run([mkdtempSync(join(tmpdir(), 'foldlab-sweep-none-')), '--strategy', 'pi', '--vary', 'enabled']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^No session with a model call found under /);
  }, 60_000);
});

describe('sweep helpers', () => {
  it('splits the work so every thread stays busy, each replay once', () => {
    expect(splitTasks(50, 50, 2)).toHaveLength(50);
    const few = splitTasks(1, 50, 4);
    expect(few.length).toBeGreaterThanOrEqual(12);
    expect(few.reduce((n, t) => n + t.to - t.from, 0)).toBe(50);
    expect(few.every((t, i) => i === 0 || t.from === few[i - 1]!.to)).toBe(true);
  });

  it('words its progress with the replays, the points and sessions, and the time left', () => {
    expect(progressLine(1250, 2500, 50, 62_000)).toBe('sweep: 1,250 of 2,500 replays (50 points × 50 sessions), 1m 02s, about 1m 02s left');
    expect(progressLine(1, 2500, 50, 5_000)).toBe('sweep: 1 of 2,500 replays (50 points × 50 sessions), 5s');
    expect(progressLine(6, 6, 6, 7_000)).toBe('sweep: 6 of 6 replays (6 points × 1 session), 7s');
  });
});

