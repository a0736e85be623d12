import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sniffBinary } from './binary.ts';
import { BINARY_SNIFF_BYTES } from './limits.ts';

const encode = (text: string) => new TextEncoder().encode(text);

describe('sniffBinary', () => {
  it('calls text any UTF-8 without NUL, even cut in the middle of a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.nat(), (text, cut) => {
        const clean = text.replace(/\0/g, '');
        const bytes = encode(clean);
        const sample = bytes.subarray(0, bytes.length === 0 ? 0 : cut % (bytes.length + 1));
        expect(sniffBinary(sample, 'a.txt', sample.length === bytes.length).binary).toBe(false);
      }),
    );
  });

  it('does not forgive a cut character when the sample is the whole file', () => {
    const euro = encode('€'); // 3 bytes
    expect(sniffBinary(euro.subarray(0, 2), 'a.txt', false).binary).toBe(false);
    expect(sniffBinary(euro.subarray(0, 2), 'a.txt', true)).toMatchObject({ binary: true, reason: 'bytes that are not valid UTF-8' });
  });

  it('finds a NUL byte anywhere in the sample and names the type', () => {
    const sample = new Uint8Array(BINARY_SNIFF_BYTES).fill(0x61);
    sample[BINARY_SNIFF_BYTES - 1] = 0;
    expect(sniffBinary(sample, 'data.bin', false)).toEqual({ binary: true, type: 'binary data (.bin)', reason: `a NUL byte at offset ${BINARY_SNIFF_BYTES - 1}` });
    expect(sniffBinary(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff]), 'doc', true)).toMatchObject({ binary: true, type: 'PDF document' });
    expect(sniffBinary(new Uint8Array([0xff, 0xfe, 0x00]), 'photo.jpg', true)).toMatchObject({ type: 'JPEG image' });
    expect(sniffBinary(new Uint8Array([0xc3, 0x28]), 'noext', true)).toMatchObject({ type: 'binary data' });
  });
});
