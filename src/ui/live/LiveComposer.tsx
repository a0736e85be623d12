/**
 * Where the user types a request: Enter sends, Shift+Enter starts a new line, Stop aborts the
 * request at once. Input waits while the session works (a compaction blocks it, L11).
 */
import { useLiveStore } from '../../store/live-store.ts';

export interface LiveComposerProps {
  conversationId: string;
  busy: boolean;
  compacting: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

export function LiveComposer({ conversationId, busy, compacting, onSend, onStop }: LiveComposerProps) {
  const draft = useLiveStore((s) => s.drafts[conversationId] ?? '');
  const setDraft = useLiveStore((s) => s.setDraft);
  const send = () => {
    if (busy || draft.trim() === '') return;
    onSend(draft);
    setDraft(conversationId, '');
  };
  return (
    <form className="live-composer" onSubmit={(event) => { event.preventDefault(); send(); }}>
      <label htmlFor="live-input" className="small">
        {compacting ? 'Compacting the history: input waits until it is done' : busy ? 'The agent is working…' : 'Your request (@path mentions a file; Enter sends, Shift+Enter for a new line)'}
      </label>
      <textarea
        id="live-input"
        rows={3}
        value={draft}
        onChange={(event) => setDraft(conversationId, event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
        aria-busy={busy}
        readOnly={compacting}
        data-testid="live.input"
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || draft.trim() === ''} data-testid="live.send">Send</button>
        <button type="button" disabled={!busy} onClick={onStop} data-testid="live.stop">Stop</button>
      </div>
    </form>
  );
}
