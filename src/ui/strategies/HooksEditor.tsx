/**
 * The user's hook module for compactions (P8): `beforeCompact` may supply a summary or cancel,
 * `afterCompact` is told what a run made, `beforeFork` may refuse a run at an earlier point. Each
 * call runs in its own worker with only the event's plain data; its errors show with the run.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { restoredCode } from '../../store/restored-code.ts';
import { useAppStore } from '../../store/store.ts';
import { RestoredCodeNotice } from './RestoredCodeNotice.tsx';

export const EXAMPLE_HOOKS = `// Each hook is optional. Return nothing to let the compaction go on.
export function beforeCompact(event) {
  // event: { strategy, trigger, cut, tokensBefore, tokensAfterEstimate, counter, summaries, entries }
  if (event.entries.length === 0) return { cancel: true, reason: 'nothing to summarize' };
  // return { summary: 'My own summary' };  // used instead of the summarizer's
}

export function afterCompact(event) {
  // event: { strategy, summaries, tokensBefore, tokensAfter, summaryApplied, firstKeptEntryId, ... }
}

export function beforeFork(event) {
  // Asked when compacting as of an earlier entry: { entryId, entryIndex, entriesLeftOut }
}
`;

export function HooksEditor() {
  const source = useAppStore((s) => s.hookSource);
  const setSource = useAppStore((s) => s.setHookSource);
  const active = source.trim() !== '';
  const waiting = useLiveQuery(async () => (await restoredCode())?.hookSource !== undefined, []) ?? false;
  return (
    <details className="options hooks" open={active || waiting}>
      <summary data-testid="compact.hooks.summary">
        Hooks {active ? '(on)' : '(none)'}{waiting ? ' · a restored hook module waits, disabled' : ''}
      </summary>
      <RestoredCodeNotice kind="hook" />
      <textarea className="plugin-source" rows={10} spellCheck={false} value={source} placeholder="export function beforeCompact(event) { ... }" onChange={(e) => setSource(e.target.value)} aria-label="Hook module (JavaScript)" data-testid="compact.hooks" />
      <div className="actions">
        <button type="button" className="link small" onClick={() => setSource(EXAMPLE_HOOKS)} data-testid="compact.hooks.example">Insert the example</button>
        {active && <button type="button" className="link small" onClick={() => setSource('')} data-testid="compact.hooks.clear">Remove the hooks</button>}
      </div>
      <span className="muted small">Runs when you compact, each call in its own worker with only the event's data, for at most 2 s; a hook's error or cancel stops the run and changes nothing.</span>
    </details>
  );
}
