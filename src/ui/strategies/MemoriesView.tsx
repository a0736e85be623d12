/**
 * Augment's memories compression (A11) side by side: the memories before (the older ones the
 * model rewrites, the recent ones kept verbatim) and, once a run has made them, after.
 */
import { plannedMemories } from '../../store/view/compaction.ts';
import type { Plan } from '../../core/compaction/types.ts';

export function MemoriesView({ plan, after }: { plan: Plan; after?: string | undefined }) {
  const planned = plannedMemories(plan);
  if (!planned) return null;
  const afterLines = after?.split('\n').filter((line) => line.trim() !== '');
  const before = planned.compress.length + planned.keep.length;
  return (
    <details className="memories" data-testid="memories">
      <summary>
        Memories: {before} lines{afterLines ? ` → ${afterLines.length}` : ` → about ${planned.targetLines + planned.keep.length}`} ({planned.compress.length} compressed to {planned.targetLines}, {planned.keep.length} most recent kept verbatim)
      </summary>
      <div className="memories-columns">
        <section aria-label="Memories before" data-testid="memories.before">
          <h4>Before</h4>
          <ul className="small">
            {planned.compress.map((line, i) => <li key={`c${i}`}>{line}</li>)}
            {planned.keep.map((line, i) => <li key={`k${i}`} className="kept">{line} <em>(kept verbatim)</em></li>)}
          </ul>
        </section>
        {afterLines && (
          <section aria-label="Memories after" data-testid="memories.after">
            <h4>After</h4>
            <ul className="small">
              {afterLines.map((line, i) => <li key={i}>{line}</li>)}
            </ul>
          </section>
        )}
      </div>
    </details>
  );
}
