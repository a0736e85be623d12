import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from './clip.ts';
import { itemKey } from './item-key.ts';

const reference = (text: string) => oneLine(text).toLowerCase().replace(/[\s.。!！?？;；:：,，]+$/u, '');

describe('itemKey', () => {
  it('gives the same key whether remembered or not, long items included', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\n', '.', '。', '!', ';', '：', 'é', '字') }),
      fc.string({ minLength: 1_001, maxLength: 1_200 }),
    );
    fc.assert(fc.property(fc.array(text, { maxLength: 30 }), (texts) => {
      for (const t of [...texts, ...texts]) expect(itemKey(t)).toBe(reference(t));
    }), { numRuns: 300, seed: 20261126 });
  });

  it('ignores case, spacing and end punctuation', () => {
    expect(itemKey('  Run  the\n tests. ')).toBe('run the tests');
    expect(itemKey('用中文。')).toBe('用中文');
  });
});
