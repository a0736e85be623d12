// `compact --hook <module.mjs>` with real modules, each call in its own worker thread (P8).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompact, type CompactArgs } from './compact.ts';

const dir = mkdtempSync(join(tmpdir(), 'foldlab-hooks-'));
function hookFile(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}
/** Eight OpenAI chat messages of 2,000 characters: enough for pi to summarize the first ones. */
const transcript = hookFile('chat.json', JSON.stringify({ messages: Array.from({ length: 8 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i} ${'words '.repeat(330)}` })) }));
const base: CompactArgs = { file: transcript, strategy: 'pi', options: { keepRecentTokens: '600' }, counter: 'chars4', contextWindow: 200_000 };

describe('compact --hook', () => {
  it('before-compact supplies the summary; after-compact is called', async () => {
    // after-compact's failure becomes a note of the run: the hook sends back the event it saw that way.
    const hook = hookFile('summary.mjs', `
      export function beforeCompact(event) { return { summary: 'Hook summary of ' + event.entries.length + ' entries (' + event.strategy + ')' }; }
      export function afterCompact(event) { throw new Error('seen ' + JSON.stringify(event)); }
    `);
    const report = await runCompact({ ...base, hook });
    expect(report.hooks).toEqual(['before-compact', 'after-compact']);
    expect(report.summary).toMatch(/^Hook summary of \d+ entries \(pi\)/);
    expect(report.record.summarizer).toBe('hook');
    const seen = report.notes.map((note) => /seen (\{.*\})/.exec(note)?.[1]).find(Boolean);
    expect(JSON.parse(seen!)).toMatchObject({ strategy: 'pi', summaryApplied: true, tokensAfter: report.tokensAfter });
  });

  it('before-compact cancels; a throw names the hook and the line; an endless loop is stopped', async () => {
    await expect(runCompact({ ...base, hook: hookFile('cancel.mjs', 'export const beforeCompact = () => ({ cancel: true, reason: "not now" });') }))
      .rejects.toThrow('The before-compact hook cancelled the compaction: not now. Nothing was changed.');
    await expect(runCompact({ ...base, hook: hookFile('throw.mjs', 'export function beforeCompact() {\n  throw new Error("bad input");\n}') }))
      .rejects.toThrow('The before-compact hook threw: bad input (line 2).');
    await expect(runCompact({ ...base, hook: hookFile('loop.mjs', 'export function beforeCompact() { for (;;) {} }'), hookTimeoutMs: 300 }))
      .rejects.toThrow('The before-compact hook did not answer within 300 ms and was stopped.');
    await expect(runCompact({ ...base, hook: hookFile('none.mjs', 'export const x = 1;') })).rejects.toThrow(/exports none of beforeCompact/);
    await expect(runCompact({ ...base, hook: hookFile('syntax.mjs', 'export function beforeCompact( {') })).rejects.toThrow(/The hook module did not load/);
  });

  it('before-fork is asked when --upto takes the session up at an earlier point, and may refuse', async () => {
    const hook = hookFile('fork.mjs', 'export function beforeFork(event) { return event.entriesLeftOut > 0 ? { cancel: true, reason: "fork after " + event.entryId } : undefined; }');
    await expect(runCompact({ ...base, hook, upTo: 5 })).rejects.toThrow(/The before-fork hook cancelled the fork: fork after \S+\. Nothing was changed\./);
    // The whole branch is no fork: the hook is not asked.
    expect((await runCompact({ ...base, hook })).hooks).toEqual(['before-fork']);
  });
});
