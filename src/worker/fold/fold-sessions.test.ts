import { describe, expect, it } from 'vitest';
import { generateSession } from '../../core/demo/generate-session.ts';
import { foldRun } from '../../core/folding/run.ts';
import { toIterations } from '../../core/folding/iterations.ts';
import type { FoldRun } from '../../core/folding/types.ts';
import { importText } from '../../core/import/run.ts';
import { getEstimator } from '../../core/tokens/counters.ts';
import { countEntries } from '../../core/tokens/entry-tokens.ts';
import { FoldSessions } from './fold-sessions.ts';

const counter = getEstimator('chars4');
const entries = importText(generateSession({ iterations: 160, seed: 5 })).entries;
const counts = Array.from(countEntries(entries, counter).totals);
const its = toIterations(entries);
const options = { contextWindow: 30_000, retrievedShare: 0.4 };

function comparable(run: FoldRun): string {
  const { cache: _cache, summariesMade: _made, ...rest } = run;
  return JSON.stringify({ ...rest, levels: Array.from(run.levels) });
}

describe('FoldSessions', () => {
  it('moves the replay forward in one session, and starts over when it moves back', () => {
    const sessions = new FoldSessions();
    const cache = new Map();
    const a = sessions.advance('k', entries, counts, 40, [], options, cache, counter);
    const b = sessions.advance('k', entries, counts, 90, [], options, cache, counter);
    expect(b.session).toBe(a.session);
    const end = its[89]!.to + 1;
    expect(comparable(b.session.snapshot())).toBe(comparable(foldRun(entries.slice(0, end), counts.slice(0, end), options, new Map(), counter)));
    const back = sessions.advance('k', entries, counts, 30, [], options, cache, counter);
    expect(back.session).not.toBe(a.session);
    expect(back.session.iterations).toBe(30);
    expect(back.made).toBe(0); // every digest came from the cache
  });

  it('recalls an expanded block at the replay position until it fades; a block that is not there is reported', () => {
    const sessions = new FoldSessions();
    const cache = new Map();
    const at = 120;
    const { session } = sessions.advance('k', entries, counts, at + 1, [], options, cache, counter);
    const block = session.snapshot().blocks.filter((b) => b.level >= 2).sort((x, y) => x.tokens.original - y.tokens.original)[0]!;
    const recalls = [{ iteration: at, blockId: block.id }, { iteration: at, blockId: 'fold_iter9999_to_10000' }];
    const now = sessions.advance('k', entries, counts, at + 1, recalls, options, cache, counter);
    expect(now.session).toBe(session);
    expect(now.session.snapshot().retrieved.map((r) => r.blockId)).toContain(block.id);
    expect(now.missed).toEqual([{ iteration: at, blockId: 'fold_iter9999_to_10000' }]);
    // It fades fadeAfter (10) iterations later, unless mentioned again.
    const later = sessions.advance('k', entries, counts, at + 40, recalls, options, cache, counter);
    const events = later.session.snapshot().events.filter((e) => e.blockId === block.id);
    expect(events.some((e) => e.trigger === 'recall-explicit' && e.iteration === at)).toBe(true);
    expect(events.some((e) => e.action === 'fade')).toBe(true);
    // The same request from scratch (another worker) gives the same run.
    const fresh = new FoldSessions().advance('k', entries, counts, at + 40, recalls, options, new Map(), counter);
    expect(comparable(fresh.session.snapshot())).toBe(comparable(later.session.snapshot()));
  });
});
