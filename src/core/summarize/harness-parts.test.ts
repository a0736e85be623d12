// Harness text inside a real-format user message (an IDE's opened file and selection as their own
// text blocks before the typed words, as Claude Code writes them): cut apart from the person's
// words, labelled apart in what a model summarizer reads, and kept out of the user requests of
// augment's abridged history and of every offline summary.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INJECTED_LABEL, serializeEntries } from '../compaction/serialize.ts';
import { parseAugmentOptions } from '../strategies/augment/params.ts';
import { abridgedHistory, structureTurn } from '../strategies/augment/abridged.ts';
import { extractFacts } from './extract.ts';
import { messageParts } from './harness.ts';
import { offlineSummaryText } from './offline.ts';
import { sampleEntries } from './testing.ts';

const ENTRIES = sampleEntries(readFileSync('src/core/summarize/__fixtures__/ide-context.jsonl', 'utf8'));
const WORDS = 'Why is the discount applied before shipping here? Make it apply after shipping.';
const HARNESS = /ide_opened_file|ide_selection|The user (?:opened|selected)|may or may not be related/;

describe('messageParts', () => {
  it('cuts the words from the harness elements around and inside them, in order', () => {
    const text = '<ide_opened_file>The user opened the file a.ts in the IDE.</ide_opened_file>\nFix this <system-reminder>\nr\n</system-reminder> please\n[Request interrupted by user]';
    expect(messageParts(text)).toEqual([
      { text: '<ide_opened_file>The user opened the file a.ts in the IDE.</ide_opened_file>', harness: 'ide_opened_file' },
      { text: 'Fix this' },
      { text: '<system-reminder>\nr\n</system-reminder>', harness: 'system-reminder' },
      { text: 'please' },
      { text: '[Request interrupted by user]', harness: 'interruption' },
    ]);
  });

  it('an unclosed element runs to the end of its line; a longer tag name is no element; plain text is one part', () => {
    expect(messageParts('<ide_selection>half\nwords')).toEqual([{ text: '<ide_selection>half', harness: 'ide_selection' }, { text: 'words' }]);
    expect(messageParts('<command-names>x</command-names>')).toEqual([{ text: '<command-names>x</command-names>' }]);
    expect(messageParts('  just words  ')).toEqual([{ text: 'just words' }]);
    expect(messageParts('')).toEqual([]);
  });
});

describe('an IDE context in a real-format Claude Code prompt', () => {
  it('the import keeps the blocks in one user message that is not flagged injected', () => {
    const [prompt] = ENTRIES;
    expect(prompt!.role).toBe('user');
    expect(prompt!.flags?.injected).toBeFalsy();
    expect(prompt!.blocks.map((block) => (block.type === 'text' ? messageParts(block.text)[0]?.harness ?? 'words' : block.type))).toEqual(['ide_opened_file', 'ide_selection', 'words']);
  });

  it('a model summarizer (pi, augment, layered) reads the harness text labelled apart from the request', () => {
    const text = serializeEntries(ENTRIES);
    expect(text).toContain(`[user]: ${WORDS}`);
    expect(text).toContain(`${INJECTED_LABEL}: <ide_opened_file>The user opened the file /home/dev/shop-api/src/cart/totals.ts`);
    expect(text).toContain(`${INJECTED_LABEL}: <ide_selection>The user selected the lines 41 to 44`);
    for (const line of text.split('\n\n').filter((l) => l.startsWith('[user]:'))) expect(line).not.toMatch(HARNESS);
  });

  it("augment's abridged history gives the person's words alone as the user message", () => {
    expect(structureTurn(ENTRIES, 0, ENTRIES.length - 1, false).userMessage).toBe(WORDS);
    const out = abridgedHistory([...ENTRIES, ...sampleEntries(readFileSync('src/core/summarize/__fixtures__/ide-context.jsonl', 'utf8'))], ENTRIES.length, { ...parseAugmentOptions(), totalCharsLimit: 100_000 });
    expect(out.text).toContain(`<user>\n${WORDS}\n</user>`);
    expect(out.text).not.toMatch(HARNESS);
  });

  it('every offline summary states the request without the harness text', () => {
    expect(extractFacts(ENTRIES).requests).toEqual([WORDS]);
    for (const promptId of ['pi-summary', 'pi-turn-prefix', 'augment-summary', 'layered-archived-summary', 'budget-memory-block']) {
      const summary = offlineSummaryText({ promptId, entries: ENTRIES, vars: {} });
      expect(summary, promptId).not.toMatch(HARNESS);
    }
    expect(offlineSummaryText({ promptId: 'pi-summary', entries: ENTRIES, vars: {} })).toContain('Make it apply after shipping');
  });
});
