// The app's demo session is in English; the mixed one (most prompts in Chinese or Japanese, answers
// in the prompt's language) is the generator's default and the app's second example.
import { describe, expect, it } from 'vitest';
import { importText } from '../import/run.ts';
import { generateSession } from './generate-session.ts';

const CJK = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** The user's prompts and the assistant's words (text and thinking) of a generated session. */
function conversationText(language: 'english' | 'mixed' | undefined): { prompts: string[]; replies: string[] } {
  const entries = importText(generateSession({ iterations: 300, seed: 1, ...(language ? { language } : {}) }), { format: 'claude-code' }).entries;
  const texts = (role: string) => entries.filter((entry) => entry.role === role && !entry.flags?.injected)
    .flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'text' || block.type === 'thinking' ? [block.text] : [])));
  return { prompts: texts('user'), replies: texts('assistant') };
}

describe('the demo session language', () => {
  it("'english' writes every prompt and reply in English", () => {
    const { prompts, replies } = conversationText('english');
    expect(prompts.length).toBeGreaterThan(5);
    for (const text of [...prompts, ...replies]) expect(text).not.toMatch(CJK);
  });

  it("'mixed', the default, has prompts and replies in Chinese or Japanese", () => {
    const { prompts, replies } = conversationText(undefined);
    expect(prompts.filter((text) => CJK.test(text)).length).toBeGreaterThan(0);
    expect(replies.filter((text) => CJK.test(text)).length).toBeGreaterThan(0);
    expect(conversationText('mixed')).toEqual(conversationText(undefined));
  });
});
