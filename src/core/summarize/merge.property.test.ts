// Property: over any run of successive updates (pi, layered, Augment nested), the final summary
// still holds every file modified, every constraint and every request of every earlier slice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkEntries, makeEntries, type Spec } from '../compaction/testing.ts';
import { clipLine, extractFacts, oneLine } from './extract.ts';
import { offlineSummaryText } from './offline.ts';

// Includes words that look like our own labels and markers, so the read-back must not misparse them.
const WORDS = ['(none)', '(unknown)', 'Status:', 'Fix:', 'Ran', 'Read', '**Stack**:', '[x]', '-', '#', '1.', 'failed:', 'Constraint:', 'I', 'modified', '`a.ts`', 'fix', 'the', 'login', 'cache', 'api', 'tests', 'build', 'route', 'User', 'db', 'schema', '日志', '接口', 'v2', 'x_y', 'a/b', '`code`', 'it\'s', 'ok?', '42', 'path:'];
const phrase = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
const constraint = fc.tuple(phrase, fc.constantFrom('must', 'never', 'always', "don't", 'only', '不要', '必须'), phrase).map(([a, rule, b]) => `${a} ${rule} ${b}.`);
const request = fc.tuple(phrase.map((text) => text.charAt(0).toUpperCase() + text.slice(1)), fc.option(constraint, { nil: undefined })).map(([ask, rule]) => (rule ? `${ask}. ${rule}` : ask));
const file = fc.tuple(fc.constantFrom('src', 'test', 'lib/core'), fc.constantFrom('a', 'b', 'c', 'deep/d', 'e e'), fc.constantFrom('.ts', '.py', '.md')).map(([dir, name, ext]) => `${dir}/${name}${ext}`);
const turn = fc.record({ ask: request, edits: fc.array(fc.tuple(fc.constantFrom('Edit', 'Write', 'Read', 'Bash'), file, fc.boolean()), { maxLength: 4 }), answer: fc.boolean() });

function turnSpecs(turns: Array<{ ask: string; edits: Array<[string, string, boolean]>; answer: boolean }>, prefix: string): Spec[] {
  const specs: Spec[] = [];
  turns.forEach((t, i) => {
    specs.push({ user: t.ask });
    t.edits.forEach(([tool, path, failed], j) => {
      const id = `${prefix}-${i}-${j}`;
      const input = tool === 'Bash' ? { command: `cat ${path}` } : { file_path: path, old_string: 'a', new_string: 'b' };
      specs.push({ assistant: '', calls: [{ id, name: tool, input }] }, { tool: failed ? 'Error: failed' : 'ok', callId: id, error: failed });
    });
    if (t.answer) specs.push({ assistant: "Done. I'll keep it simple because it is enough." });
  });
  return specs;
}

const FLOWS: Array<[string, string]> = [['pi-summary', 'pi-update-summary'], ['layered-archived-summary', 'layered-archived-summary'], ['augment-summary', 'augment-summary']];

describe('merge property', () => {
  it('nothing extracted from an earlier slice is lost by later updates', () => {
    fc.assert(fc.property(fc.array(fc.array(turn, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 4 }), fc.constantFrom(...FLOWS), (sliceTurns, [first, update]) => {
      const slices = sliceTurns.map((turns, k) => linkEntries(makeEntries(turnSpecs(turns, `s${k}`))));
      let previous: string | undefined;
      slices.forEach((entries, k) => {
        previous = offlineSummaryText({ promptId: k === 0 ? first : update, entries, vars: {}, ...(previous !== undefined ? { previousSummary: previous } : {}) });
      });
      const text = previous!;
      for (const entries of slices) {
        const facts = extractFacts(entries);
        for (const path of facts.files.modified) expect(text).toContain(path);
        for (const rule of facts.constraints) expect(text).toContain(oneLine(rule));
        for (const asked of facts.requests) expect(text).toContain(clipLine(asked, 600));
      }
    }), { numRuns: 150 });
  });

  it('never throws on arbitrary text, and is deterministic', () => {
    fc.assert(fc.property(fc.array(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 200 }), fc.constantFrom('pi-update-summary', 'augment-summary', 'layered-archived-summary', 'budget-memory-block', 'augment-memories-compression', 'pi-turn-prefix'), (asks, previousSummary, promptId) => {
      const entries = makeEntries(asks.map((ask) => ({ user: ask })));
      const a = offlineSummaryText({ promptId, entries, vars: { target_lines: '2' }, previousSummary });
      expect(offlineSummaryText({ promptId, entries, vars: { target_lines: '2' }, previousSummary })).toBe(a);
    }), { numRuns: 150 });
  });
});
