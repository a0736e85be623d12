import { describe, expect, it } from 'vitest';
import { formatFold, runFold } from './fold.ts';

const SAMPLE = 'public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl';

describe('cli fold --simulate (F13)', () => {
  it('reports what folding a range would save, beside the run it leaves as it was', async () => {
    const plain = await runFold({ file: SAMPLE, options: {}, contextWindow: 60_000 });
    const report = await runFold({ file: SAMPLE, options: {}, contextWindow: 60_000, simulate: '5-30' });
    const { simulation, ...rest } = report;
    expect(rest).toEqual(plain);
    expect(simulation).toMatchObject({ from: 5, to: 30, level: 2, summarizer: 'offline', source: 'offline' });
    expect(simulation!.context.before).toBe(report.tokensAfter);
    expect(simulation!.savings.tokens).toBe(simulation!.range.before - simulation!.range.after);
    expect(formatFold(report)).toMatch(/Simulate: iterations 5-30 folded into one L2 block \(offline; the run is not changed\)\n.*\n.*\n {2}context +\d+ -> \d+\n {2}savings +-?\d+ tokens \(-?\d+% of the range, -?\d+% of the context\)/);
    const chapter = await runFold({ file: SAMPLE, options: {}, simulate: '0-9', level: 3 });
    expect(chapter.simulation!.text).toMatch(/^Chapter \(iterations 0-9\)/);
  });

  it('refuses bad simulate arguments before reading the file', async () => {
    await expect(runFold({ file: 'missing.jsonl', options: {}, simulate: '30-5' })).rejects.toThrow(/ends before it starts/);
    await expect(runFold({ file: 'missing.jsonl', options: {}, simulate: '1-5', level: 1 })).rejects.toThrow(/--level must be 2/);
    await expect(runFold({ file: 'missing.jsonl', options: {}, simulate: '1-5', summarizer: 'remote' })).rejects.toThrow(/--summarizer must be offline or model \(with --base-url and --model\); got "remote"/);
    await expect(runFold({ file: 'missing.jsonl', options: {}, level: 3 })).rejects.toThrow(/go with --simulate/);
    await expect(runFold({ file: SAMPLE, options: {}, simulate: '5-100000' })).rejects.toThrow(/pick a range within 0-/);
  });
});
