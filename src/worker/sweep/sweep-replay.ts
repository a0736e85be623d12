/**
 * The sweep worker's side: replays one setting on one stored session with the core's
 * `sweepSession` (the replay a one-configuration Compare and the CLI `sweep` run) and answers that
 * session's figures. The
 * journal and its counts are read from IndexedDB once per session and the last few sessions kept
 * (the pool hands out a point's sessions in turn). Free of `self`, so the
 * browser worker and the Node tests run this same code.
 */
import { sweepSession } from '../../core/sweep/run.ts';
import type { SessionFigures } from '../../core/sweep/score.ts';
import type { Summarizer } from '../../core/compaction/summarizer.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { countEntries } from '../../core/tokens/entry-tokens.ts';
import { getCounter, type CounterId } from '../../core/tokens/counters.ts';
import { createOfflineSummarizer } from '../../core/summarize/offline.ts';
import { loadEntries } from '../../db/conversations.ts';
import type { FoldlabDatabase } from '../../db/schema.ts';
import { cachedCounts, countsKey } from '../../db/token-counts.ts';
import { createRemoteSummarizer } from '../../llm/remote/remote.ts';
import { PROMPTS } from '../engine/prompts.ts';
import type { SweepReply, SweepRequest, SweepTask } from './sweep-protocol.ts';

/** Makes the summarizer of a task. */
export type SweepSummarizers = Readonly<Record<SweepTask['summarizer'], (task: SweepTask) => Summarizer>>;

export const SWEEP_SUMMARIZERS: SweepSummarizers = {
  offline: () => createOfflineSummarizer(),
  remote: (task) => {
    if (!task.remote) throw new Error('Choose a remote provider in Settings > Models first.');
    return createRemoteSummarizer(task.remote);
  },
};

/** Sessions a worker keeps loaded. Default 4. */
export const SESSIONS_KEPT = 4;

interface LoadedSession {
  key: string;
  journal: Entry[];
  totals: ArrayLike<number>;
}

export class SweepReplayer {
  /** Loaded sessions, least recently used first. */
  private readonly loaded: LoadedSession[] = [];

  constructor(
    private readonly db: FoldlabDatabase,
    private readonly summarizers: SweepSummarizers = SWEEP_SUMMARIZERS,
  ) {}

  /** Replays `task`; `signal` stops it (the in-thread worker's terminate). */
  async run(task: SweepTask, signal?: AbortSignal): Promise<SessionFigures> {
    const makeSummarizer = this.summarizers[task.summarizer];
    if (!makeSummarizer) throw new Error(`Unknown summarizer "${String(task.summarizer)}": a sweep summarizes offline or with a remote model.`);
    const session = await this.session(task.conversationId, task.counter);
    const [figures] = await sweepSession({ name: task.conversationId, journal: session.journal, totals: session.totals }, [task.options], {
      strategy: task.strategy, counter: await getCounter(task.counter), contextWindow: task.contextWindow,
      summarizer: makeSummarizer(task), prompts: PROMPTS,
      ...(signal ? { signal } : {}),
    });
    return figures!;
  }

  /** The session's journal and counts: the cached counts of its current import, else counted here. */
  private async session(conversationId: string, counterId: CounterId): Promise<LoadedSession> {
    const conversation = await this.db.conversations.get(conversationId);
    if (!conversation) throw new Error(`No conversation ${conversationId}: it may have been deleted since the sweep started.`);
    const key = countsKey(conversationId, conversation.importId, counterId);
    const at = this.loaded.findIndex((session) => session.key === key);
    if (at >= 0) {
      const [hit] = this.loaded.splice(at, 1);
      this.loaded.push(hit!);
      return hit!;
    }
    const journal = await loadEntries(this.db, conversationId);
    const cached = await cachedCounts(this.db, { conversationId, importId: conversation.importId, counter: counterId });
    const totals = cached?.totals ?? countEntries(journal, await getCounter(counterId)).totals;
    const session = { key, journal, totals };
    this.loaded.push(session);
    if (this.loaded.length > SESSIONS_KEPT) this.loaded.shift();
    return session;
  }
}

/** The handler of the requests the pool sends a worker; `post` sends the reply; `signal` stops every replay. */
export function sweepServer(replayer: SweepReplayer, post: (reply: SweepReply) => void, signal?: AbortSignal): (request: SweepRequest) => void {
  return (request) => {
    const { taskId } = request.task;
    replayer.run(request.task, signal).then(
      (figures) => post({ type: 'done', taskId, figures }),
      (error: unknown) => {
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        post({ type: 'failed', taskId, name, message });
      },
    );
  };
}
