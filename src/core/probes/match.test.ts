// normalizeForMatch, prepareContext and matchProbe: word-start matching, spans, and the cost bound.
import { describe, expect, it } from 'vitest';
import { matchProbe, occurrences, prepareContext, SPAN_CHARS } from './match.ts';
import { normalizeForMatch, normalizeWithOffsets } from './normalize.ts';
import type { Probe } from './types.ts';

const probe = (needles: string[][]): Probe => ({ id: 't', category: 'artifact', kind: 'modified', text: 't', entryId: 'e0', entryIndex: 0, needles });

describe('normalizeForMatch', () => {
  it('lowercases, applies NFKC, strips punctuation except path and URL characters', () => {
    expect(normalizeForMatch('`src/App.tsx`')).toBe('src/app.tsx');
    expect(normalizeForMatch('src/app.tsx,')).toBe('src/app.tsx');
    expect(normalizeForMatch('  Ｆｕｌｌｗｉｄｔｈ\t\n ﬁle  ')).toBe('fullwidth file');
    expect(normalizeForMatch('"Hello, World!" -- see #12 @me: https://x.io/a_b?q=1')).toBe('hello world -- see #12 @me: https://x.io/a_b q=1');
    expect(normalizeForMatch('e\u0301cole')).toBe('école');
    expect(normalizeForMatch("don't")).toBe('don t');
    expect(normalizeForMatch('不要修改测试')).toBe('不要修改测试');
  });

  it('records where each normalized character came from', () => {
    const { text, offsets } = normalizeWithOffsets('A, `B`');
    expect(text).toBe('a b');
    expect([...offsets]).toEqual([0, 4, 4, 6]);
  });
});

describe('matchProbe', () => {
  it('matches needles at word starts, letters-only needles as prefixes', () => {
    const context = prepareContext('We updated `src/App.tsx` and the latest Links. Also app.tsx.bak exists.');
    expect(matchProbe(probe([['src/app.tsx']]), context).kept).toBe(true);
    expect(matchProbe(probe([['test']]), context).kept).toBe(false); // not inside "latest"
    expect(matchProbe(probe([['link']]), context).kept).toBe(true); // "links"
    expect(matchProbe(probe([['updat']]), context).kept).toBe(true);
    expect(matchProbe(probe([['app.ts']]), context).kept).toBe(false); // not "app.tsx"
    expect(matchProbe(probe([['nothing'], ['app.tsx']]), context).kept).toBe(true); // any alternative
  });

  it('needs all needles of an alternative within one span and returns that span', () => {
    const far = `alpha ${'filler '.repeat(80)} omega`;
    expect(matchProbe(probe([['alpha', 'omega']]), prepareContext(far)).kept).toBe(false);
    const text = `${'x '.repeat(300)}Do NOT touch the Tests folder, ever. ${'y '.repeat(300)}`;
    const match = matchProbe(probe([['touch', 'tests']]), prepareContext(text));
    expect(match.kept).toBe(true);
    expect(match.span).toContain('touch the Tests');
    expect(match.span!.length).toBeLessThanOrEqual(200);
  });

  it('picks a later window when the first occurrences are too far apart', () => {
    const text = `cache ${'z '.repeat(SPAN_CHARS)} bust the cache then invalidate it`;
    const match = matchProbe(probe([['cache', 'invalidat']]), prepareContext(text));
    expect(match).toEqual({ kept: true, span: expect.stringContaining('cache then invalidate') });
  });

  it('elides the middle of a wide window but keeps every needle', () => {
    const text = `renderer.py ${'word '.repeat(70)} ImportError`;
    const match = matchProbe(probe([['renderer.py', 'importerror']]), prepareContext(text));
    expect(match.kept).toBe(true);
    expect(match.span).toContain('renderer.py');
    expect(match.span).toContain('ImportError');
    expect(match.span).toContain(' … ');
    expect(match.span!.length).toBeLessThanOrEqual(220);
  });

  it('matches punctuation-led, short and CJK needles by scan', () => {
    const context = prepareContext('see issue #12, run with --port=8080; 请不要修改测试文件');
    expect(matchProbe(probe([['#12']]), context).kept).toBe(true);
    expect(matchProbe(probe([['#1']]), context).kept).toBe(false);
    expect(matchProbe(probe([['--port', '8080']]), context).kept).toBe(true);
    expect(matchProbe(probe([['修改', '测试']]), context).kept).toBe(true);
  });

  it('looks up candidates through the word-start index, not by scanning the context', () => {
    const context = prepareContext(`${'alpha beta '.repeat(10_000)}gamma`);
    // Only word starts are indexed: "gam" has one entry however long the context is.
    expect(context.starts.get('gam')).toEqual([110_000]);
    expect(occurrences(context, 'gamma')).toEqual([110_000]);
    expect(occurrences(context, 'alpha').length).toBe(10_000);
    expect(matchProbe(probe([['gamma', 'beta']]), context).kept).toBe(true);
  });
});
