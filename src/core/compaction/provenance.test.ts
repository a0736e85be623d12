import { describe, expect, it } from 'vitest';
import { fnv1a64 } from '../hash.ts';
import { buildProvenance, foldSummaryProvenance, foldViewProvenance, ProvenanceError, sourceHash, type BaseProvenance, type ProvenanceSource } from './provenance.ts';
import { promptVersion } from './run.ts';

const entry = (index: number, text: string, role = 'user'): ProvenanceSource => ({ id: `e${index}`, index, role, blocks: [{ type: 'text', text }] });
const entries = [entry(3, 'fix the parser'), entry(4, 'done: edited src/parse.ts', 'assistant'), entry(7, 'thanks')];

describe('buildProvenance', () => {
  it('records summarizer, model, method, prompt version, range and a hash of the source', () => {
    const record = buildProvenance({ summarizer: 'openai', model: 'gpt-4o-mini-2024-07-18', method: 'compaction:pi/history', prompt: { id: 'pi-summary', text: 'Summarize {{conversation}}' }, entries, at: 1_800_000_000_000 });
    expect(record).toEqual({
      v: 1,
      summarizer: 'openai',
      model: 'gpt-4o-mini-2024-07-18',
      method: 'compaction:pi/history',
      prompt: { id: 'pi-summary', version: promptVersion('Summarize {{conversation}}') },
      range: { from: 3, to: 7, count: 3, firstId: 'e3', lastId: 'e7' },
      sourceHash: sourceHash(entries),
      at: 1_800_000_000_000,
    });
    expect(record.sourceHash).toMatch(/^fnv1a64:[0-9a-f]{16}$/);
  });

  it('the hash changes with any change of content, role, id or order, and is stable otherwise', () => {
    const base = sourceHash(entries);
    expect(sourceHash(entries.map((e) => ({ ...e, blocks: [...e.blocks] })))).toBe(base);
    expect(sourceHash([entries[0]!, entries[1]!, entry(7, 'thanks!')])).not.toBe(base);
    expect(sourceHash([entries[0]!, { ...entries[1]!, role: 'user' }, entries[2]!])).not.toBe(base);
    expect(sourceHash([entries[1]!, entries[0]!, entries[2]!])).not.toBe(base);
    expect(sourceHash([{ ...entries[0]!, id: 'x' }, entries[1]!, entries[2]!])).not.toBe(base);
    // Concatenation cannot forge a match: "ab" + "c" differs from "a" + "bc".
    expect(sourceHash([entry(0, 'ab'), entry(1, 'c')])).not.toBe(sourceHash([entry(0, 'a'), entry(1, 'bc')]));
  });

  it('refuses a record with no source entry', () => {
    expect(() => buildProvenance({ summarizer: 'offline', model: 'offline', method: 'fold:L2', entries: [], at: 0 })).toThrow(ProvenanceError);
  });
});

describe('fold provenance (stored fold views and model fold summaries)', () => {
  it('a fold view covers every iteration and hashes the top-level block hashes in order', () => {
    expect(foldViewProvenance('offline', 1, 12, ['0123456789abcdef', 'fedcba9876543210'])).toEqual({
      model: 'offline',
      method: 'fold v1',
      range: { from: 0, to: 11 },
      sourceHash: fnv1a64('0123456789abcdeffedcba9876543210'),
    });
    expect(foldViewProvenance('offline', 1, 12, ['fedcba9876543210', '0123456789abcdef']).sourceHash).not.toBe(fnv1a64('0123456789abcdeffedcba9876543210'));
    // An empty branch still names a valid range.
    expect(foldViewProvenance('webllm:m', 2, 0, []).range).toEqual({ from: 0, to: 0 });
  });

  it('a model fold summary names its level, the self-check and the block it summarizes', () => {
    const range = { from: 4, to: 9 };
    const record = foldSummaryProvenance('remote:https://api.openai.com/v1|gpt-4o-mini', 'L3', true, range, '00ff00ff00ff00ff');
    expect(record).toEqual({ model: 'remote:https://api.openai.com/v1|gpt-4o-mini', method: 'fold-summary L3+self-check', range: { from: 4, to: 9 }, sourceHash: '00ff00ff00ff00ff' });
    expect(record.range).not.toBe(range);
    expect(foldSummaryProvenance('offline', 'L2', false, { from: -1, to: -1 }, 'aa').method).toBe('fold-summary L2');
  });

  it('a summary record is a provenance record too: the same four fields mean the same', () => {
    const summary: BaseProvenance = buildProvenance({ summarizer: 'offline', model: 'offline', method: 'compaction:pi/history', entries, at: 0 });
    const fold: BaseProvenance = foldViewProvenance('offline', 1, 8, ['aa']);
    for (const record of [summary, fold]) {
      expect(Object.keys(record)).toEqual(expect.arrayContaining(['model', 'method', 'range', 'sourceHash']));
      expect(record.range.from).toBeLessThanOrEqual(record.range.to);
    }
  });
});
