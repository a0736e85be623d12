/**
 * pi's own token estimate, rule by rule (chars/4 per message rounded up; tool call name + JSON
 * arguments; 1,200 tokens per tool-result image; a user message's images not counted), and the pi
 * strategy counting with it when asked, on a real pi session.
 */
import { describe, expect, it } from 'vitest';
import { runCompact } from '../../../cli/compact.ts';
import { importFile } from '../../test-fixtures.ts';
import { buildInput } from '../../compaction/input.ts';
import type { Entry } from '../../journal/entry.ts';
import { getCounter } from '../../tokens/counters.ts';
import { countEntries } from '../../tokens/entry-tokens.ts';
import { piStrategy } from '../pi.ts';
import { piEstimateChars, piEstimateTokens } from './estimate.ts';

const entry = (role: Entry['role'], blocks: Entry['blocks']): Entry => ({ id: `e-${Math.random()}`, index: 0, line: 1, parentId: null, role, kind: 'message', blocks }) as unknown as Entry;
const image = { type: 'image', mediaType: 'image/png', bytes: 10, source: 'base64' } as const;

describe('pi’s estimate, rule by rule', () => {
  it('a user message counts its text only, rounded up per message', () => {
    expect(piEstimateTokens(entry('user', [{ type: 'text', text: 'hello' }]))).toBe(2);
    expect(piEstimateChars(entry('user', [{ type: 'text', text: 'abcd' }, image, { type: 'text', text: 'efgh' }]))).toBe(8);
  });

  it('an assistant message counts text, thinking and each call’s name plus its JSON arguments', () => {
    const reply = entry('assistant', [
      { type: 'thinking', text: 'plan' },
      { type: 'text', text: 'ok' },
      { type: 'tool_call', callId: 'c1', name: 'read', input: { path: 'a.ts' } },
    ]);
    expect(piEstimateChars(reply)).toBe(4 + 2 + 'read'.length + JSON.stringify({ path: 'a.ts' }).length);
    expect(piEstimateTokens(reply)).toBe(Math.ceil(piEstimateChars(reply) / 4));
  });

  it('a tool result counts its text plus 4,800 characters (1,200 tokens) per image', () => {
    const result = entry('tool', [{ type: 'tool_result', callId: 'c1', isError: false, content: [{ type: 'text', text: 'x'.repeat(8) }, image, image] }]);
    expect(piEstimateChars(result)).toBe(8 + 9_600);
    expect(piEstimateTokens(result)).toBe(2 + 2_400);
  });

  it('a summary counts its text', () => {
    expect(piEstimateTokens(entry('summary', [{ type: 'text', text: 'x'.repeat(401) }]))).toBe(101);
  });
});

describe('the pi strategy’s tokenCount option', () => {
  const FILE = 'public/samples/pi/large-session.jsonl';

  it('defaults to the chosen counter and is refused with its values when wrong', () => {
    expect(piStrategy.parse({}).tokenCount).toBe('counter');
    expect(() => piStrategy.parse({ tokenCount: 'words' })).toThrow(/tokenCount.*counter, pi-estimate/);
  });

  it('pi/large-session: with pi-estimate every figure is pi’s estimate, and the cut keeps keepRecentTokens of it', async () => {
    const { entries } = await importFile(FILE);
    const counter = await getCounter('o200k');
    const built = buildInput(entries, countEntries(entries, counter).totals, counter, { contextWindow: 60_000, wallClock: 0 });
    const estimated = built.input.entries.map(piEstimateTokens);
    const total = estimated.reduce((a, b) => a + b, 0);
    const options = piStrategy.parse({ tokenCount: 'pi-estimate' });
    const plan = piStrategy.plan({ ...built.input, unseenPrefixTokens: 0 }, options);
    expect(plan.tokensBefore).toBe(total);
    expect(plan.tokensBefore).not.toBe(piStrategy.plan({ ...built.input, unseenPrefixTokens: 0 }, piStrategy.parse({})).tokensBefore);
    expect(plan.notes.join(' ')).toContain('chars/4 as pi estimates (images 1,200)');
    const kept = estimated.slice(plan.cut!.index).reduce((a, b) => a + b, 0);
    expect(kept).toBeGreaterThanOrEqual(options.keepRecentTokens);

    // The run agrees with its plan in the same unit (the CLI passes the option through).
    const report = await runCompact({ file: FILE, strategy: 'pi', options: { tokenCount: 'pi-estimate' }, counter: 'o200k', contextWindow: 60_000 });
    expect(report.cut?.index).toBe(plan.cut!.index);
    expect(Math.abs(report.plannedTokensAfter - report.tokensAfter)).toBeLessThanOrEqual(0.02 * report.tokensAfter);
  }, 60_000);
});
