/**
 * `normalizeWithOffsets` gives the plain definition's text on any ASCII input, long ones included
 * (the text is assembled in chunks of 8,192 units), keeps a surrogate pair whole where it straddles
 * two chunks, and maps every normalized character back to where it came from.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeWithOffsets } from './normalize.ts';

/** The definition for ASCII: lowercase, every run of other characters than letters, digits and `/ . _ - : # @ % ~ + =` one space, trimmed. */
function plainAscii(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9/._\-:#@%~+=]+/g, ' ').trim();
}

const asciiText = fc.array(fc.constantFrom('a', 'B', 'z', '0', '9', ' ', '\n', ',', '`', '/', '.', '-', '=', '%', '(', '"'), { maxLength: 40 }).map((chars) => chars.join(''));

describe('normalizeWithOffsets', () => {
  it('is the plain definition on ASCII text, across chunk boundaries, with each character mapped to its origin', () => {
    fc.assert(
      fc.property(asciiText, fc.nat(20_000), (piece, repeat) => {
        const text = piece.repeat(Math.ceil(repeat / Math.max(1, piece.length)));
        const { text: normalized, offsets } = normalizeWithOffsets(text);
        expect(normalized).toBe(plainAscii(text));
        expect(offsets.length).toBe(normalized.length + 1);
        expect(offsets[normalized.length]).toBe(text.length);
        let misplaced = 0;
        for (let i = 0; i < normalized.length; i++) if (normalized[i] !== ' ' && text[offsets[i]!]!.toLowerCase() !== normalized[i]) misplaced++;
        expect(misplaced).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a surrogate pair whole where its two units fall in two chunks', () => {
    const letter = '\u{20000}';
    for (const before of [8191, 16383]) {
      const text = `${'a'.repeat(before)}${letter}b`;
      const { text: normalized, offsets } = normalizeWithOffsets(text);
      expect(normalized).toBe(text);
      expect(offsets[before]).toBe(before);
      expect(offsets[before + 1]).toBe(before);
      expect(offsets[before + 2]).toBe(before + 2);
    }
  });
});
