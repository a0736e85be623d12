/**
 * For tests only: a saved sweep of three pi points over two sessions, the third point sending
 * calls over the window on its first session, as the Sweep tab's view and model tests read it.
 */
import { emptyScores } from '../../core/replay/scoring.ts';
import { DEFAULT_RETENTION_WEIGHTS, type SessionFigures } from '../../core/sweep/score.ts';
import type { SweepRow } from '../../db/sweep-row.ts';

function figures(tokens: number, kept: number, overflowCalls = 0): SessionFigures {
  const probes = emptyScores();
  probes.task = { kept, total: 2 };
  return { tokensPerTask: tokens, uncompactedTokensPerTask: 1000, probes, overflowCalls, compactions: 1 };
}

export const threePointSweep: SweepRow = {
  id: 's', createdAt: 1, name: 'pi', strategy: 'pi', plan: { vary: ['keepRecentTokens=1000..3000:3'] },
  sessions: [{ conversationId: 'c1', importId: 'i', title: 'first session' }, { conversationId: 'c2', importId: 'i', title: 'second session' }],
  counter: 'chars4', contextWindow: 50_000, summarizer: 'offline',
  points: [{ enabled: true, reserveTokens: 16384, keepRecentTokens: 1000 }, { enabled: true, reserveTokens: 16384, keepRecentTokens: 2000 }, { enabled: true, reserveTokens: 16384, keepRecentTokens: 3000 }],
  figures: [[figures(300, 1), figures(300, 1)], [figures(500, 2), figures(500, 2)], [figures(200, 2, 3), figures(200, 2)]],
  planned: 3, cancelled: false, weights: { ...DEFAULT_RETENTION_WEIGHTS }, durationMs: 5,
};
