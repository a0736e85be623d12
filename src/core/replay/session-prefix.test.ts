import { describe, expect, it } from 'vitest';
import { sentSentence } from './session-prefix.ts';
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
