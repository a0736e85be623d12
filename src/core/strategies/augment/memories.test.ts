import { describe, expect, it } from 'vitest';
import { applyMemoriesCompression, memoriesTask, planMemoriesCompression } from './memories.ts';

const params = { maxLines: 5, compressionTarget: 4, numRecentMemoriesToKeep: 2, compressionPrompt: 'augment-memories-compression' };
const lines = (n: number) => Array.from({ length: n }, (_, i) => `- m${i}`).join('\n');

describe('memories compression planner (seed 000 §6.4, §11.2)', () => {
  it('triggers on split("\\n").length > maxLines, blank lines included', () => {
    expect(planMemoriesCompression(lines(5), params).needed).toBe(false);
    expect(planMemoriesCompression(`${lines(5)}\n`, params).needed).toBe(true);
    expect(planMemoriesCompression('', params)).toMatchObject({ needed: false, lineCount: 0 });
  });

  it('keeps the N most recent verbatim and asks the target minus them', () => {
    const plan = planMemoriesCompression(lines(8), params);
    expect(plan).toMatchObject({ needed: true, lineCount: 8, toCompress: ['- m0', '- m1', '- m2', '- m3', '- m4', '- m5'], keepVerbatim: ['- m6', '- m7'], targetLines: 2 });
    expect(plan.reason).toBe('memories 8 lines > max 5: compress the 6 older ones to 2 lines, keep the 2 most recent verbatim (target 4)');
    const task = memoriesTask(plan, 'augment-memories-compression');
    expect(task).toMatchObject({ from: 0, to: -1, vars: { target_lines: '2', num_recent: '2' } });
    expect(task.vars!.memories).toBe('<memories>\n- m0\n- m1\n- m2\n- m3\n- m4\n- m5\n</memories>');
  });

  it('result: the model lines then the recent ones; more lines than asked are kept and flagged', () => {
    const plan = planMemoriesCompression(lines(8), params);
    expect(applyMemoriesCompression(plan, '- a\n\n- b\n')).toEqual({ text: '- a\n- b\n- m6\n- m7', lines: 4, overTarget: false });
    expect(applyMemoriesCompression(plan, '- a\n- b\n- c').overTarget).toBe(true);
  });

  it('skips without a prompt or when everything is recent', () => {
    expect(planMemoriesCompression(lines(8), { ...params, compressionPrompt: '' }).needed).toBe(false);
    expect(planMemoriesCompression(lines(8), { ...params, numRecentMemoriesToKeep: 50 }).reason).toMatch(/nothing to compress/);
    expect(planMemoriesCompression(lines(8), { ...params, compressionTarget: 1 }).targetLines).toBe(1);
  });
});
