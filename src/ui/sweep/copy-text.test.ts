import { describe, expect, it } from 'vitest';
import { copyText } from './copy-text.ts';

describe('copyText', () => {
  it('puts the exact text on the clipboard', async () => {
    let held = '';
    const outcome = await copyText('{\n  "compaction": {}\n}', { writeText: async (text) => { held = text; } });
    expect(outcome).toBe('copied');
    expect(held).toBe('{\n  "compaction": {}\n}');
  });

  it('falls back to selecting the text when the clipboard refuses or is missing', async () => {
    expect(await copyText('x', { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) })).toBe('select');
    expect(await copyText('x', undefined)).toBe('select');
  });
});
