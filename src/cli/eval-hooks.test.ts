// `eval --hook <module.mjs>`: the user's hooks at each compaction of each configuration's replay, in worker threads (P8).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEvalArgs } from './eval-args.ts';
import { runEval, type EvalStrategyReport } from './eval.ts';
import { formatEvalText } from './eval-format.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-eval-hooks-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
/** Twenty-four OpenAI chat messages of 2,000 characters: pi compacts several times in a 4,000-token window. */
const transcript = file('chat.json', JSON.stringify({ messages: Array.from({ length: 24 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i} ${'words '.repeat(330)}` })) }));
const flags = [transcript, '--counter', 'chars4', '--window', '4000'];
const pi = { strategy: 'pi', options: { reserveTokens: '1000', keepRecentTokens: '600' } };
const evalRows = async (argv: string[]) => {
  const report = await runEval(parseEvalArgs([...flags, ...argv]));
  return { report, rows: report.files[0]!.strategies };
};

describe('eval --hook', () => {
  it('runs the hooks for the configurations that ask for them: a cancel and a summary change that replay only', async () => {
    // The first compaction is cancelled (a module-level counter is no use: each call is a fresh thread), later ones get the hook's summary.
    const hook = file('hooks.mjs', `
      export function beforeCompact(event) {
        if (event.tokensBefore < 3500) return { cancel: true, reason: 'small yet' };
        return { summary: 'Hook summary of ' + event.entries.length + ' entries' };
      }
    `);
    const configs = JSON.stringify([{ ...pi, hooks: false }, pi]);
    const { report, rows } = await evalRows(['--configs-json', configs, '--hook', hook]);
    const [plain, hooked] = rows as [EvalStrategyReport, EvalStrategyReport];
    expect(plain.label).toBe('pi (reserveTokens=1000, keepRecentTokens=600)');
    expect(hooked.label).toBe('pi (reserveTokens=1000, keepRecentTokens=600) + hooks');
    expect(plain.hookNotes).toBeUndefined();
    expect(plain.compactions).toBeGreaterThan(1);
    expect(plain.summaries.every((s) => !s.startsWith('Hook summary'))).toBe(true);
    expect(hooked.summaries.length).toBeGreaterThan(0);
    expect(hooked.summaries.every((s) => /^Hook summary of \d+ entries/.test(s))).toBe(true);
    expect(hooked.hookNotes!.some((note) => /^Call \d+: the before-compact hook cancelled the compaction \(small yet\); the replay went on with the context as it was\.$/.test(note))).toBe(true);
    expect(formatEvalText(report)).toMatch(/\n {2}hook: Call \d+: the before-compact hook cancelled the compaction \(small yet\)/);
  }, 60_000);

  it('a hook that throws or loops is noted on its row, and the replay goes on as without hooks', async () => {
    const plain = (await evalRows(['--configs-json', JSON.stringify([pi])])).rows[0]!;
    const thrown = (await evalRows(['--configs-json', JSON.stringify([pi]), '--hook', file('throw.mjs', 'export function beforeCompact() {\n  throw new Error("bad input");\n}')])).rows[0]!;
    expect(thrown.compactions).toBe(plain.compactions);
    expect(thrown.tokensPerTask).toBe(plain.tokensPerTask);
    expect(thrown.hookNotes).toHaveLength(plain.compactions);
    expect(thrown.hookNotes![0]).toMatch(/^Call \d+: The before-compact hook threw: bad input \(line 2\)\. That compaction ran as without hooks\.$/);
    const looped = (await evalRows(['--strategies', 'pi:reserveTokens=1000,keepRecentTokens=600', '--hook', file('loop.mjs', 'export function afterCompact() { for (;;) {} }'), '--hook-timeout', '300'])).rows[0]!;
    expect(looped.tokensPerTask).toBe(plain.tokensPerTask);
    expect(looped.hookNotes![0]).toMatch(/^Call \d+: The after-compact hook did not answer within 300 ms and was stopped\. .* The compaction stands\.$/);
  }, 60_000);

  it('refuses a module that does not load, and hooks without a module', async () => {
    await expect(evalRows(['--strategies', 'pi', '--hook', file('none.mjs', 'export const x = 1;')])).rejects.toThrow(/exports none of beforeCompact/);
    expect(() => parseEvalArgs([...flags, '--configs-json', JSON.stringify([{ ...pi, hooks: true }])])).toThrow('a configuration runs hooks ("hooks": true) but no --hook MODULE.mjs was given');
    expect(() => parseEvalArgs([...flags, '--strategies', 'pi', '--hook-timeout', '300'])).toThrow('--hook-timeout needs --hook MODULE.mjs');
  });
});
