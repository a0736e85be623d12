/** The plan before anything is summarized: the trigger's decision with its numbers, the cut and its rule, what each entry becomes. */
import type { PlanPreview } from '../../worker/engine/protocol.ts';
import { FateStrip } from './FateStrip.tsx';
import { MemoriesView } from './MemoriesView.tsx';
import { NoteText } from '../common/NoteText.tsx';
import type { Entry } from '../../core/journal/entry.ts';
import { sentSentence } from '../../store/view/replay-settings.ts';
import { describeChange, PLAN_AFTER_NOTES } from '../../store/view/compaction.ts';

/** `byId` finds the conversation's entries, so the notes name them by line and excerpt. */
export function PlanView({ preview, counterLabel, byId }: { preview: PlanPreview; counterLabel: string; byId?: (id: string) => Entry | undefined }) {
  const { plan } = preview;
  const find = byId ?? (() => undefined);
  const fmt = (n: number) => n.toLocaleString('en-US');
  const prefix = preview.unseenPrefix.tokens;
  // A model's summaries are counted at their budget: that figure is an estimate, and says so.
  const basis = plan.afterBasis ?? 'budget';
  const estimate = basis === 'budget' ? 'about ' : '';
  return (
    <section className="plan" aria-label="Plan" data-testid="plan">
      <p data-testid="plan.trigger">
        <strong>Trigger</strong> ({plan.trigger.rule}): {plan.trigger.fire ? 'fires' : 'does not fire'} — <code>{plan.trigger.detail}</code>
      </p>
      {plan.cut && (
        <p data-testid="plan.cut">
          <strong>Cut</strong> before input entry {plan.cut.index + 1} (<NoteText note={preview.entryIds[plan.cut.index] ?? ''} byId={find} />): {plan.cut.rule}
        </p>
      )}
      {plan.nothingToDo && (
        <p className="warn" role="status" data-testid="plan.nothing">
          {plan.nothingToDo}
        </p>
      )}
      <p data-testid="plan.tokens" data-basis={basis}>
        <strong>Tokens</strong> {fmt(plan.tokensBefore)} → {estimate}{fmt(plan.tokensAfterEstimate)} in the transcript ({counterLabel})
        {plan.tokensBefore > 0 && ` · ${describeChange(plan.tokensBefore + prefix, plan.tokensAfterEstimate + prefix)} of what is sent`}
      </p>
      <ul className="small" data-testid="plan.sent" aria-label="Context as sent">
        <li data-testid="plan.sent.before">Before: {sentSentence(plan.tokensBefore, preview.unseenPrefix)}</li>
        <li data-testid="plan.sent.after">After: {estimate}{sentSentence(plan.tokensAfterEstimate, preview.unseenPrefix)}</li>
        <li className="muted" data-testid="plan.after.basis">{PLAN_AFTER_NOTES[basis]}</li>
      </ul>
      <FateStrip fates={plan.fates} cut={plan.cut?.index} />
      {plan.summaries.length > 0 && (
        <p className="small">
          Summaries to make: {plan.summaries.map((task) => `${task.id} (entries ${task.from + 1}–${task.to + 1}, prompt ${task.prompt}${task.previousSummary ? ', updating the previous summary' : ''})`).join('; ')}
        </p>
      )}
      {plan.compressions.length > 0 && <p className="small">{plan.compressions.length} tool outputs compressed for history.</p>}
      <MemoriesView plan={plan} />
      {preview.scope && <p className="small muted" data-testid="plan.scope" data-from={preview.scope.from}>{preview.scope.note}</p>}
      {((preview.inputNote && !preview.scope) || plan.notes.length > 0) && (
        <ul className="small notes" data-testid="plan.notes">
          {preview.inputNote && !preview.scope && <li>{preview.inputNote}</li>}
          {plan.notes.map((note, i) => (
            <li key={i}><NoteText note={note} byId={find} /></li>
          ))}
        </ul>
      )}
    </section>
  );
}
