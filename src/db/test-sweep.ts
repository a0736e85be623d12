/**
 * For tests only: a saved sweep as the Sweep tab stores it (sweep-row.ts) over the given sessions,
 * two points of pi's keepRecentTokens, one cancelled before its third, with figures on each session
 * (one session's replay failed at the second point), so backup and migration tests check a real row.
 */
import { DEFAULT_RETENTION_WEIGHTS } from '../core/sweep/score.ts';
import type { SessionFigures } from '../core/sweep/score.ts';
import type { SweepRow } from './sweep-row.ts';

function figures(tokensPerTask: number, kept: number, error?: string): SessionFigures {
  return {
    tokensPerTask, uncompactedTokensPerTask: 48_213, overflowCalls: 0, compactions: 2,
    probes: { task: { kept: 1, total: 1 }, constraint: { kept: 0, total: 0 }, error: { kept, total: 3 }, artifact: { kept: 4, total: 6 }, identifier: { kept: 2, total: 5 }, decision: { kept: 1, total: 2 } },
    ...(error !== undefined ? { error } : {}),
  };
}

export function sampleSweep(sessions: ReadonlyArray<{ id: string; importId: string; title: string }>): Omit<SweepRow, 'id' | 'createdAt'> {
  return {
    name: 'pi keepRecentTokens', strategy: 'pi', plan: { vary: ['keepRecentTokens=4000..12000:3'] },
    sessions: sessions.map((s) => ({ conversationId: s.id, importId: s.importId, title: s.title })),
    counter: 'chars4', contextWindow: 50_000, summarizer: 'offline',
    points: [{ keepRecentTokens: 4000 }, { keepRecentTokens: 8000 }],
    figures: [sessions.map((_, i) => figures(20_000 + i * 517.25, 1)), sessions.map((_, i) => figures(26_000 + i, 2, i === 1 ? 'The replay stopped: no user message.' : undefined))],
    planned: 3, cancelled: true, weights: { ...DEFAULT_RETENTION_WEIGHTS, identifier: 0.5 }, durationMs: 8_412,
  };
}
