/**
 * The retrieved zone at the replay's position (F7): each recalled block with how it came (your
 * expand, a mention, an error), since when and when it fades, and expands that found no block.
 */
import type { FoldView, RecallRequest } from '../../worker/fold/fold-protocol.ts';

const HOW: Record<string, string> = {
  'recall-explicit': 'expanded (query_history)',
  'recall-implicit': 'mentioned again',
  'recall-error': 'error recall',
};

export function RetrievedZone({ view, recalls, onOpen }: { view: FoldView; recalls: readonly RecallRequest[]; onOpen: (blockId: string) => void }) {
  const titles = new Map(view.blocks.map((block) => [block.id, block.title]));
  // Your expands the zone had no room for (the numbers say how far over it was).
  const skipped = view.events.filter((e) => e.action === 'recall-skipped' && e.trigger === 'recall-explicit' && recalls.some((r) => r.blockId === e.blockId && r.iteration === e.iteration));
  return (
    <div className="small" data-testid="fold.retrieved" aria-live="polite">
      <strong>Retrieved zone</strong>{' '}
      {view.retrieved.length === 0 && <span className="muted">empty: expand a search hit or an opened block to recall it here.</span>}
      <ul>
        {view.retrieved.map((r) => (
          <li key={r.blockId} data-testid="fold.retrieved.item" data-block-id={r.blockId}>
            <button type="button" className="link" onClick={() => onOpen(r.blockId)}>{titles.get(r.blockId)?.slice(0, 50) ?? r.blockId}</button>
            {' '}· iterations {r.from + 1}–{r.to + 1} at L{r.level} · {r.tokens.toLocaleString('en-US')} tokens · {HOW[r.trigger] ?? r.trigger} at {r.since + 1}, fades at {r.until + 1}
          </li>
        ))}
      </ul>
      {skipped.map((e) => (
        <p key={`${e.blockId}@${e.iteration}`} className="warn" role="status" data-testid="fold.retrieved.skipped">
          Not expanded at {e.iteration + 1}: {titles.get(e.blockId ?? '')?.slice(0, 50) ?? e.blockId} needs {(e.numbers.tokens ?? 0).toLocaleString('en-US')} tokens, the retrieved zone has {(e.numbers.budget ?? 0).toLocaleString('en-US')} left (raise retrievedShare in the folding options).
        </p>
      ))}
      {view.missedRecalls.length > 0 && (
        <p className="muted" role="status">
          Not recalled (no such folded block at that iteration): {view.missedRecalls.map((r) => `${r.blockId} at ${r.iteration + 1}`).join(', ')}
        </p>
      )}
    </div>
  );
}
