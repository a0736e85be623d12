import { describe, expect, it } from 'vitest';
import { buildProvenance, ProvenanceError, sourceHash, type ProvenanceSource } from './provenance.ts';
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
