/**
 * The judged mode's cache (v4): answers and grades a model gave, by the hash of what they depend
 * on. Read one key at a time while planning; written in one transaction when a whole judge run
 * has succeeded, so a failed or cancelled run leaves nothing behind.
 */
import type { JudgeCache, JudgeCacheRow } from '../core/replay/judge.ts';
import type { CachedAnswer, CachedGrade } from '../core/replay/judge-questions.ts';
import type { FoldlabDatabase, JudgementRow } from './schema.ts';

/** The cache as the judge core reads it. */
export function judgementCache(db: FoldlabDatabase): JudgeCache {
  return {
    async answer(key): Promise<CachedAnswer | undefined> {
      const row = await db.judgements.get(key);
      return row?.kind === 'answer' ? { text: row.text, model: row.model } : undefined;
    },
    async grade(key): Promise<CachedGrade | undefined> {
      const row = await db.judgements.get(key);
      return row?.kind === 'grade' ? { score: row.score, reason: row.reason, model: row.model } : undefined;
    },
  };
}

/** Stores a successful run's new answers and grades. */
export async function storeJudgements(db: FoldlabDatabase, rows: readonly JudgeCacheRow[], createdAt = Date.now()): Promise<void> {
  if (rows.length === 0) return;
  const stamped: JudgementRow[] = rows.map((row) => ({ ...row, createdAt }));
  await db.transaction('rw', db.judgements, async () => {
    await db.judgements.bulkPut(stamped);
  });
}

/** How many answers and grades are cached. */
export function countJudgements(db: FoldlabDatabase): Promise<number> {
  return db.judgements.count();
}

/** Forgets every cached answer and grade (the next judge run asks the model again). */
export async function clearJudgements(db: FoldlabDatabase): Promise<void> {
  await db.judgements.clear();
}
