// The offline phase line (L4) and block titles on the real Claude Code sample: what the phase did
// (files read / edited, commands and how they ended), the goal short and cut at a word boundary,
// never the first user message clipped mid-word and never harness text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_SAMPLE, claudeWithHarness, sampleEntries } from '../summarize/testing.ts';
import { digestEntries, levelText, mergeBlockDigests } from './digest.ts';
import { toIterations } from './iterations.ts';
import { goalPhrase, PHASE_MAX_CHARS, TITLE_MAX_CHARS } from './phase-line.ts';

const RAW = readFileSync(CLAUDE_SAMPLE, 'utf8');
const ENTRIES = sampleEntries(RAW);
const ITS = toIterations(ENTRIES);
const part = (a: number, b: number) => ENTRIES.slice(ITS[a]!.from, ITS[b]!.to + 1);
const range = (a: number, b: number) => ({ from: a, to: b, entryFrom: ITS[a]!.from, entryTo: ITS[b]!.to });

describe('the offline phase line', () => {
  it('says what the phase did, goal first (before: "[iterations 0-9] Hey Claude, please have a look at the gi … ith_navigation do")', () => {
    expect(levelText(4, digestEntries(part(0, 9)), range(0, 9))).toBe(
      '[iterations 0-9] Have a look at the git diff of claude_code_log/renderer.py… — read 1 file (session_nav.html), '
      + 'edited 3 files (renderer.py, session_nav_styles.css, transcript.html), ran `git diff claude_code_log/renderer.py`',
    );
  });

  it('names the commands that failed and how they ended; a long phase keeps within its length', () => {
    const last = ITS.length - 1;
    const whole = digestEntries(ENTRIES);
    const line = levelText(4, whole, range(0, last));
    expect(line).toBe(
      `[iterations 0-${last}] Have a look at the git diff of claude_code_log/renderer.py… — read 2 files, edited 3 files, created 1 file, `
      + 'ran `uv run pytest test/test_combined_transcript_link.py -v` (5 failures, then passing), …',
    );
    expect(whole.content.length).toBeLessThanOrEqual(PHASE_MAX_CHARS);
    // A phase merged from its parts says the same as the phase read whole.
    const merged = mergeBlockDigests([digestEntries(part(0, 30)), digestEntries(part(31, 60)), digestEntries(part(61, last))]);
    expect(merged.content).toBe(whole.content);
  });

  it('every block title is short, cut between words, and never harness text', () => {
    const entries = claudeWithHarness(RAW);
    const its = toIterations(entries);
    for (const it of its) {
      const { title, content } = digestEntries(entries.slice(it.from, it.to + 1));
      expect(title.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
      expect(`${title} ${content}`).not.toMatch(/ide_selection|system-reminder|command-name|local-command|Caveat/);
      // A clipped title ends after a whole word (or a whole path part): the source goes on with a space or a separator.
      if (title.endsWith('…')) {
        const kept = title.slice(0, -1);
        const source = entries.slice(it.from, it.to + 1).map((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text : '')).join(' ')).join(' ').replace(/\s+/g, ' ');
        const at = source.toLowerCase().indexOf(kept.slice(1).toLowerCase());
        expect(at, title).toBeGreaterThanOrEqual(0);
        if (!/[/\\:]$/.test(kept)) expect(source.charAt(at + kept.length - 1), title).toMatch(/[\s.,;:?!]|^$/);
      }
    }
    const first = its.findIndex((it) => entries.slice(it.from, it.to + 1).some((entry) => entry.role === 'user' && !entry.flags?.injected));
    expect(digestEntries(entries.slice(its[first]!.from, its[first]!.to + 1)).title).toBe('Have a look at the git diff of claude_code_log/renderer.py…');
  });

  it('a goal drops greetings and "can you please", and is cut at a word boundary', () => {
    expect(goalPhrase("It's been a while - I see that I have pending changes. Can you examine them, i.e., including unknown files?", 40)).toBe("It's been a while - I see that I have…");
    expect(goalPhrase('ok, can you please fix the flaky login test?')).toBe('Fix the flaky login test');
    expect(goalPhrase("'/var/folders/T/Screenshot 2025-11-21 at 01.27.21.png' any idea why the colors differ?")).toBe('Any idea why the colors differ?');
  });
});

describe('a block whose calls name no file or command (real Claude Code sample with Task sub-agents)', () => {
  const raw = readFileSync('src/core/import/__fixtures__/claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'utf8');
  const entries = sampleEntries(raw);
  const its = toIterations(entries);
  const digestOf = (k: number) => digestEntries(entries.slice(its[k]!.from, its[k]!.to + 1));

  it('names the Task calls instead of saying "no tool calls"', () => {
    // Iteration 2 starts three Task sub-agents; iteration 0 globs twice under the /orchestrator request.
    expect(digestOf(2).content).toBe('Called Task ×3');
    expect(digestOf(0).content).toBe('/orchestrator create TODO app by Next.js: Split complex… — called Glob ×2');
    for (let k = 0; k < its.length; k++) {
      const calls = entries.slice(its[k]!.from, its[k]!.to + 1).some((entry) => entry.blocks.some((block) => block.type === 'tool_call'));
      if (calls) expect(digestOf(k).content, `iteration ${k}`).not.toMatch(/no tool calls/);
    }
  });

  it('a merged block counts the calls of its parts, as the block read whole does', () => {
    const whole = digestEntries(entries.slice(its[1]!.from, its[5]!.to + 1));
    const merged = mergeBlockDigests([1, 2, 3, 4, 5].map(digestOf));
    expect(merged.basis?.others).toEqual([{ tool: 'TodoWrite', count: 3 }, { tool: 'Task', count: 5 }]);
    expect(merged.content).toBe(whole.content);
  });

  it('a block of only such calls without a goal or reply is titled by them', () => {
    expect(digestOf(3).title).toBe('Called TodoWrite');
  });
});
