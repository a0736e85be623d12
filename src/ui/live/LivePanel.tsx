/**
 * The Live tab of a live session: the current branch as a chat (replies streaming, tool calls and
 * results as they happen), the composer with Stop, branch moves (P7: edit and resend, or continue
 * on another branch, whose summary is shown), and export as pi session JSONL v3.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ConversationRow, EntryRow } from '../../db/schema.ts';
import { closeLiveSession, editAndResendLive, exportLiveSession, isAttached, liveLeaf, sendLive, stopLive, switchLiveBranch } from '../../store/live-actions.ts';
import { IDLE_RUNTIME, useLiveStore } from '../../store/live-store.ts';
import { liveBranchView } from '../../store/view/live-session.ts';
import { download } from '../common/download.ts';
import { MarkdownText } from '../common/MarkdownText.tsx';
import { LiveComposer } from './LiveComposer.tsx';
import { LiveEntry } from './LiveEntry.tsx';
import { LiveReconnect } from './LiveReconnect.tsx';
import { LiveActivity, LiveStats } from './LiveStatus.tsx';
import { LiveTodos } from './LiveTodos.tsx';
import { useStickToBottom } from './stick-to-bottom.ts';
import './live.css';

/** Entries shown in the chat (the newest of the branch); the Transcript tab shows them all. */
const SHOWN = 300;

export function LivePanel({ conversation, entries }: { conversation: ConversationRow; entries: readonly EntryRow[] }) {
  const runtime = useLiveStore((s) => s.runtimes[conversation.id]);
  if (!runtime || !isAttached(conversation.id)) return <LiveReconnect conversationId={conversation.id} />;
  return <AttachedPanel conversation={conversation} entries={entries} />;
}

function AttachedPanel({ conversation, entries }: { conversation: ConversationRow; entries: readonly EntryRow[] }) {
  const id = conversation.id;
  const runtime = useLiveStore((s) => s.runtimes[id]) ?? IDLE_RUNTIME;
  const [exported, setExported] = useState<string>();
  const leaf = liveLeaf(id);
  // Drawn again only when the journal or the leaf changes, not at every streamed piece.
  const { shownLeaf, path, branches, todos } = useMemo(() => liveBranchView(entries, leaf), [entries, leaf]);
  const busy = runtime.busy;
  const onResend = useCallback((entryId: string, text: string) => void editAndResendLive(id, entryId, text), [id]);
  // The same elements while a reply streams (the runtime changes many times a second): React skips the stored entries.
  const shown = useMemo(
    () =>
      path.slice(-SHOWN).map((index) => {
        const entry = entries[index];
        // Only a user entry shows `busy` (its Edit button): the others are not redrawn when a turn starts or ends.
        return entry ? <LiveEntry key={entry.id} entry={entry} busy={entry.role === 'user' && busy} onResend={onResend} /> : null;
      }),
    [path, entries, busy, onResend],
  );

  const chat = useRef<HTMLDivElement>(null);
  // Each new entry, streamed text and activity line brings the chat to its end, unless the user scrolled up.
  const { onScroll } = useStickToBottom(chat, [shown, runtime]);

  const exportJsonl = async () => {
    const result = await exportLiveSession(id);
    download(result.fileName, result.text, 'application/x-ndjson');
    setExported(`${result.fileName}: ${result.entries} entries as pi session JSONL v3.`);
  };

  return (
    <section className="live-panel" aria-label="Live session" data-testid="live.panel">
      <div className="live-toolbar">
        <LiveStats runtime={runtime} />
        {branches.length > 1 && (
          <label className="field inline">
            <span>Continue on branch</span>
            <select value={shownLeaf} disabled={busy} onChange={(e) => void switchLiveBranch(id, e.target.value)} data-testid="live.branch">
              {branches.map((branch, i) => (
                <option key={branch.leafId} value={branch.leafId}>#{i + 1} · {branch.length} entries · {branch.label}</option>
              ))}
            </select>
          </label>
        )}
        <button type="button" onClick={() => void exportJsonl()} disabled={busy} data-testid="live.export">Export pi JSONL</button>
        <button type="button" onClick={() => void closeLiveSession(id)} title="Stop the session in this tab and let go of its model; the journal is kept and can be opened again" data-testid="live.close">Close session</button>
      </div>
      {exported && <p className="small muted" data-testid="live.exported">{exported}</p>}
      <LiveTodos todos={todos} />
      {runtime.branchSummary && (
        <details className="live-branch-summary" open data-testid="live.branch-summary">
          <summary>Summary of the branch left behind (given to the model where this branch continues)</summary>
          <div className="live-md"><MarkdownText text={runtime.branchSummary} /></div>
        </details>
      )}
      {/* Focusable so the chat can be scrolled from the keyboard. */}
      <div ref={chat} onScroll={onScroll} className="live-chat" role="log" aria-label="Current branch of the session" tabIndex={0} data-testid="live.chat">
        {path.length > shown.length && <p className="muted small">{path.length - shown.length} earlier entries: see the Transcript tab.</p>}
        {shown}
        <LiveActivity runtime={runtime} />
      </div>
      <LiveComposer conversationId={id} busy={busy} compacting={runtime.phase === 'compacting'} onSend={(text) => void sendLive(id, text)} onStop={() => stopLive(id)} />
    </section>
  );
}
