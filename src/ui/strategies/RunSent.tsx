/**
 * A stored run's context as sent, before and after: the transcript's tokens plus the unseen prefix
 * (system prompt, tool definitions) the run was computed with, as it was then, whatever the
 * estimate entered since.
 */
import { sentSentence } from '../../store/view/replay-settings.ts';
import type { CompactionRow } from '../../db/schema.ts';

export function RunSent({ row }: { row: Pick<CompactionRow, 'record' | 'unseenPrefix'> }) {
  const prefix = row.unseenPrefix;
  if (!prefix) {
    return (
      <p className="small muted" data-testid="run.sent.unknown">
        This run was stored without the unseen prefix it was computed with: its figures count the transcript only.
      </p>
    );
  }
  return (
    <ul className="small" data-testid="run.sent" aria-label="Context as sent">
      <li data-testid="run.sent.before">Before: {sentSentence(row.record.tokens_before, prefix)}</li>
      <li data-testid="run.sent.after">After: {sentSentence(row.record.tokens_after, prefix)}</li>
    </ul>
  );
}
