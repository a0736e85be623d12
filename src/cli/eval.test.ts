import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigList } from '../core/replay/label.ts';
import { findTranscripts, runEval } from './eval.ts';
import { parseEvalArgs } from './eval-args.ts';
import { formatEvalCsv, formatEvalMarkdown, formatEvalText } from './eval-format.ts';

const CLAUDE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';
const PI_SMALL = 'public/samples/pi/v3-small.jsonl';

describe('eval arguments', () => {
  it('commas separate configurations and their options', () => {
    expect(parseConfigList('pi:keepRecentTokens=10000,reserveTokens=4096,augment,observation-masking:keepTurns=5')).toEqual([
      { strategy: 'pi', options: { keepRecentTokens: '10000', reserveTokens: '4096' } },
      { strategy: 'augment', options: {} },
      { strategy: 'observation-masking', options: { keepTurns: '5' } },
    ]);
    expect(() => parseConfigList(' , ')).toThrow(/No strategy configuration/);
    expect(() => parseConfigList('pi:keepRecentTokens')).toThrow(/not key=value/);
  });

  it('names what is wrong', () => {
    expect(() => parseEvalArgs(['--strategies', 'pi'])).toThrow(/at least one <file\|folder>/);
    expect(() => parseEvalArgs(['a.jsonl'])).toThrow(/needs --strategies/);
    expect(() => parseEvalArgs(['a.jsonl', '--strategies', 'pi', '--jobs', '0'])).toThrow(/--jobs must be a whole number >= 1/);
    expect(() => parseEvalArgs(['a.jsonl', '--strategies', 'pi', '--summarizer', 'webllm'])).toThrow(/--summarizer must be offline or model; got "webllm"/);
    expect(() => parseEvalArgs(['a.jsonl', '--strategies', Array.from({ length: 9 }, () => 'pi').join(',')])).toThrow(/at most 8/);
    expect(parseEvalArgs(['a.jsonl', 'b/', '--strategies', 'pi', '--md', '--window', '50_000'])).toMatchObject({ paths: ['a.jsonl', 'b/'], output: 'md', contextWindow: 50_000, counter: 'o200k', jobs: 1 });
  });
});

describe('eval', () => {
  it('searches folders (subagent files included), skips what is not a transcript, and reports each file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'foldlab-eval-'));
    mkdirSync(join(dir, 'session', 'subagents'), { recursive: true });
    copyFileSync(PI_SMALL, join(dir, 'session', 'main.jsonl'));
    copyFileSync(PI_SMALL, join(dir, 'session', 'subagents', 'agent-1.jsonl'));
    writeFileSync(join(dir, 'notes.txt'), 'not a transcript');
    expect(findTranscripts([dir]).map((f) => f.slice(dir.length))).toEqual(['/session/main.jsonl', '/session/subagents/agent-1.jsonl']);
    const report = await runEval({ paths: [dir], configs: [{ strategy: 'pi', options: {} }], counter: 'chars4', contextWindow: 200_000, jobs: 1 });
    expect(report.files).toHaveLength(2);
    expect(report.files[0]!.strategies[0]).toMatchObject({ id: 'pi', compactions: 0, overflowCalls: 0 });
  });

  it('--jobs 2 splits the files over two processes and gives the same report', async () => {
    const args = { paths: [PI_SMALL, 'public/samples/claude-code/dag_compact_after_rewind.jsonl'], configs: [{ strategy: 'sliding-window', options: { windowSize: 2 } }], counter: 'chars4' as const, contextWindow: 10_000 };
    const one = await runEval({ ...args, jobs: 1 });
    const two = await runEval({ ...args, jobs: 2 });
    expect(two).toEqual(one);
  }, 60_000);

  it('refuses a bad option before reading any file', async () => {
    await expect(runEval({ paths: ['/no/such/file.jsonl'], configs: [{ strategy: 'pi', options: { reserveTokens: 'x' } }], counter: 'chars4', contextWindow: 1000, jobs: 1 })).rejects.toThrow(/reserveTokens/);
    await expect(runEval({ paths: ['/no/such/file.jsonl'], configs: [{ strategy: 'pi', options: {} }], counter: 'chars4', contextWindow: 1000, jobs: 1 })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--strategies pi,folding:… --json replays memory folding beside pi, with its folds, digests and probes', async () => {
    const args = parseEvalArgs([CLAUDE, '--strategies', 'pi,folding:everyLow=30,l0Distance=4', '--counter', 'chars4', '--window', '32000', '--json']);
    expect(args.configs).toEqual([{ strategy: 'pi', options: {} }, { strategy: 'folding', options: { everyLow: '30', l0Distance: '4' } }]);
    const report = JSON.parse(JSON.stringify(await runEval(args))) as Awaited<ReturnType<typeof runEval>>;
    const [pi, folding] = report.files[0]!.strategies;
    expect(pi!.id).toBe('pi');
    expect(folding).toMatchObject({ id: 'folding', label: 'folding (everyLow=30, l0Distance=4)', summarizerTokens: { input: 0, output: 0 } });
    expect(folding!.error).toBeUndefined();
    expect(folding!.series).toHaveLength(105);
    expect(folding!.compactions).toBe(folding!.series.filter((s) => s.compacted).length);
    expect(folding!.compactions).toBeGreaterThan(0);
    expect(folding!.summaries.length).toBeGreaterThan(0);
    expect(folding!.tokensPerTask).toBe(folding!.series.reduce((sum, s) => sum + s.contextTokens, 0));
    expect(folding!.probeList.length).toBe(Object.values(folding!.probes).reduce((n, s) => n + s.total, 0));
    expect(folding!.probeList.length).toBeGreaterThan(0);
    await expect(runEval({ ...args, paths: ['/no/such/file.jsonl'], configs: [{ strategy: 'folding', options: { l0Distance: 'x' } }] })).rejects.toThrow(/l0Distance/);
    await expect(runEval({ ...args, paths: ['/no/such/file.jsonl'], configs: [{ strategy: 'fold', options: {} }] })).rejects.toThrow(/use one of .*folding/);
  }, 60_000);

  it('gives the series, totals, probes and summaries, as JSON, Markdown and CSV', async () => {
    const report = await runEval({ paths: [CLAUDE], configs: [{ strategy: 'pi', options: {} }, { strategy: 'observation-masking', options: {} }], counter: 'chars4', contextWindow: 50_000, model: 'claude-sonnet-4-5', jobs: 1 });
    const [file] = report.files;
    expect(file).toMatchObject({ format: 'claude-code', calls: 105, contextWindow: 50_000 });
    const [pi, masking] = file!.strategies;
    expect(pi!.series).toHaveLength(105);
    expect(pi!.compactions).toBeGreaterThan(0);
    expect(pi!.summaries.length).toBeGreaterThanOrEqual(pi!.compactions);
    expect(pi!.tokensPerTask).toBe(pi!.series.reduce((sum, s) => sum + s.contextTokens, 0) + pi!.summarizerTokens.input + pi!.summarizerTokens.output);
    expect(pi!.cost).toBeGreaterThan(0);
    expect(pi!.probeList.length).toBe(Object.values(pi!.probes).reduce((n, s) => n + s.total, 0));
    expect(masking!.summarizerTokens).toEqual({ input: 0, output: 0 });
    const md = formatEvalMarkdown(report);
    // One row per configuration in the totals table, and again in the at-compaction table; one for the recorded run.
    expect(md.split('\n').filter((line) => line.startsWith('| public/samples'))).toHaveLength(5);
    expect(md).toContain('checked right after the compaction that removed them');
    const csv = formatEvalCsv(report).split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain(String(pi!.tokensPerTask));
  }, 60_000);

  it('shows each configuration\'s trigger against the window and warns, with the overflowing calls, when it cannot fire before it', async () => {
    const report = await runEval({ paths: [CLAUDE], configs: [{ strategy: 'tool-result-clearing', options: {} }, { strategy: 'pi', options: {} }], counter: 'chars4', contextWindow: 50_000, jobs: 1 });
    const [clearing, pi] = report.files[0]!.strategies;
    expect(clearing!.trigger).toEqual({ tokens: 100_000, rule: 'triggerTokens 100,000' });
    expect(clearing!.warnings).toEqual([expect.objectContaining({ kind: 'trigger-past-window', overflowCalls: clearing!.overflowCalls })]);
    expect(clearing!.overflowCalls).toBeGreaterThan(0);
    expect(pi!.warnings).toEqual([]);
    expect(pi!.trigger!.tokens).toBe(50_000 - 16_384);
    const text = formatEvalText(report).split('\n');
    expect(text).toHaveLength(5);
    expect(text[0]).toContain('; trigger 100,000 tokens = 200% of the window (triggerTokens 100,000)');
    expect(text[1]).toBe(`  warning (trigger-past-window, ${clearing!.overflowCalls} overflow calls): ${clearing!.warnings[0]!.message}`);
    expect(text[2]).toContain('trigger 33,616 tokens = 67% of the window (contextWindow 50,000 - reserveTokens 16,384)');
    const md = formatEvalMarkdown(report);
    expect(md).toContain('| trigger | warnings |');
    expect(md).toContain(`trigger-past-window: ${clearing!.warnings[0]!.message}`);
  }, 60_000);

  it('--json: the agent\'s own run as recorded and the uncompacted run per file, each configuration\'s ratio to it; printed as their own rows', async () => {
    const report = JSON.parse(JSON.stringify(await runEval({ paths: ['public/samples/pi/before-compaction.jsonl', 'public/samples/codex/schema-coverage.jsonl'], configs: [{ strategy: 'pi', options: {} }], counter: 'chars4', contextWindow: 200_000, jobs: 1 }))) as Awaited<ReturnType<typeof runEval>>;
    const [codex, pi] = report.files; // in path order
    expect(pi!.recorded!.series).toHaveLength(pi!.calls);
    expect(pi!.recorded!.compactions.map((c) => c.call)).toEqual([171, 294]);
    expect(pi!.recorded!.tokensPerTask).toBe(pi!.recorded!.series.reduce((sum, p) => sum + (p.sentTokens ?? 0), 0));
    expect(pi!.uncompacted!.tokensPerTask).toBeGreaterThan(pi!.strategies[0]!.tokensPerTask);
    expect(pi!.strategies[0]!.ratioToUncompacted).toBe(Math.round((pi!.strategies[0]!.tokensPerTask / pi!.uncompacted!.tokensPerTask) * 10_000) / 10_000);
    expect(pi!.recorded!.ratioToUncompacted).toBe(Math.round((pi!.recorded!.tokensPerTask / pi!.uncompacted!.tokensPerTask) * 10_000) / 10_000);
    expect(codex!.recorded).toBeNull();
    expect(codex!.uncompacted!.tokensPerTask).toBeGreaterThan(0);
    const text = formatEvalText(report);
    expect(text).toContain(`  as recorded (the agent's own run, provider-reported prompt tokens): ${pi!.recorded!.recordedCalls} of ${pi!.calls} calls with usage, 2 own compactions, peak ${pi!.recorded!.peakTokens}`);
    expect(text).toContain('  as recorded: no call recorded its usage');
    expect(text).toContain(`  uncompacted (every call sent all before it): peak ${codex!.uncompacted!.peakTokens}`);
    const md = formatEvalMarkdown(report);
    expect(md).toContain(`| public/samples/pi/before-compaction.jsonl | ${pi!.recorded!.recordedCalls} of ${pi!.calls} | 2 |`);
    expect(md).toContain('| public/samples/codex/schema-coverage.jsonl | no usage recorded |');
    expect(formatEvalCsv(report).split('\n')[0]).toContain(',vs uncompacted,trigger,warnings,parent');
  }, 60_000);
});
