/** The one unseen prefix of the page and the CLI, and the sentence that shows a context as sent. */
import { describe, expect, it } from 'vitest';
import { importFile } from '../test-fixtures.ts';
import { getCounter } from '../tokens/counters.ts';
import { countEntries } from '../tokens/entry-tokens.ts';
import { branchUnseenPrefix, sentSentence } from './session-prefix.ts';
import { parseUnseenPrefix } from './unseen-estimate.ts';

describe('a context size as sent, in words', () => {
  it('recorded, estimated (preset or typed) and none', () => {
    expect(sentSentence(39_072, { tokens: 33_412, source: 'recorded', call: 2, calls: 9, note: '' }))
      .toBe('72,484 sent = 39,072 in the transcript + 33,412 not in it: system prompt and tool definitions, from the usage recorded at call 3');
    expect(sentSentence(1_000, parseUnseenPrefix('pi'))).toBe('2,640 sent = 1,000 in the transcript + 1,640 not in it: system prompt and tool definitions (estimate: pi preset)');
    expect(sentSentence(1_000, parseUnseenPrefix('500'))).toBe('1,500 sent = 1,000 in the transcript + 500 not in it: system prompt and tool definitions (estimate: entered by hand)');
    expect(sentSentence(1_000, parseUnseenPrefix('0'))).toBe('1,000 sent = 1,000 in the transcript + 0: no usage recorded; enter one in settings');
  });
});

describe('the branch prefix the gauge shows', () => {
  it('is the recorded one where usage was recorded, the estimate where none was, and 0 for an estimate the field refuses', async () => {
    const counter = await getCounter('o200k');
    const shown = async (file: string) => {
      const { entries } = await importFile(file);
      const { totals } = countEntries(entries, counter);
      const kept = entries.filter((entry) => entry.kind !== 'event' && !entry.flags?.sidechain);
      return { kept, counts: kept.map((entry) => totals[entry.index] ?? 0) };
    };
    const claude = await shown('public/samples/claude-code/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl');
    expect(branchUnseenPrefix(claude.kept, claude.counts, 'pi')).toMatchObject({ tokens: 18_094, source: 'recorded', call: 1 });
    const codex = await shown('public/samples/codex/schema-coverage.jsonl');
    expect(branchUnseenPrefix(codex.kept, codex.counts)).toMatchObject({ tokens: 0, source: 'none' });
    expect(branchUnseenPrefix(codex.kept, codex.counts, 'pi')).toMatchObject({ tokens: 1_640, source: 'estimate', preset: 'pi' });
    expect(branchUnseenPrefix(codex.kept, codex.counts, 'lots')).toMatchObject({ tokens: 0, source: 'none' });
  }, 60_000);
});
