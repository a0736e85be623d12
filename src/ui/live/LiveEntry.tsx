/**
 * One journal entry of a live session as the Live tab shows it: the user's words (the files they
 * mentioned folded away), the reply, tool calls and their results, compactions and branch
 * summaries. Words, replies and summaries render as markdown (elements, never HTML: raw HTML stays
 * text); tool calls, results and appended files stay preformatted text.
 */
import { memo, useState } from 'react';
import type { Block, Entry } from '../../core/journal/entry.ts';
import { formatNumber } from '../common/format.ts';
import { MarkdownText } from '../common/MarkdownText.tsx';

const REMINDER = '\n\n<system-reminder>';

function text(blocks: readonly Block[]): string {
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

function json(value: unknown): string {
  try {
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return String(value);
  }
}

export interface LiveEntryProps {
  entry: Entry;
  busy: boolean;
  onResend: (entryId: string, text: string) => void;
}

/** Memoized: a streamed reply re-renders the chat many times a second, its stored entries need not. */
export const LiveEntry = memo(function LiveEntry({ entry, busy, onResend }: LiveEntryProps) {
  if (entry.kind === 'compaction') {
    const branch = entry.marker?.source === 'pi.branch_summary';
    return (
      <details className="live-entry live-marker" data-testid={branch ? 'live.branch-summary-entry' : 'live.compaction-entry'}>
        <summary>{branch ? 'Branch summary: what was done on the branch left behind' : `Context compacted${entry.marker?.tokensBefore ? ` (from ${formatNumber(entry.marker.tokensBefore)} tokens)` : ''}`}</summary>
        <div className="live-md"><MarkdownText text={text(entry.blocks)} /></div>
      </details>
    );
  }
  if (entry.role === 'user') return <UserEntry entry={entry} busy={busy} onResend={onResend} />;
  if (entry.role === 'tool') {
    return (
      <>
        {entry.blocks.map((block, i) =>
          block.type === 'tool_result' ? (
            <details key={i} className={`live-entry live-tool-result${block.isError ? ' error' : ''}`} data-testid="live.tool-result">
              <summary>{block.isError ? '✗' : '✓'} result of {block.toolName ?? 'tool'}</summary>
              <pre className="live-text">{block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')}</pre>
            </details>
          ) : null,
        )}
      </>
    );
  }
  return (
    <div className={`live-entry live-${entry.role}`} data-testid={`live.entry.${entry.role}`}>
      {entry.blocks.map((block, i) => {
        if (block.type === 'text') return <div key={i} className="live-md"><MarkdownText text={block.text} /></div>;
        if (block.type === 'thinking') return <details key={i} className="muted"><summary>Thinking</summary><p className="live-text">{block.text}</p></details>;
        if (block.type === 'tool_call') return <p key={i} className="live-call" data-testid="live.tool-call"><code>{block.name}({json(block.input)})</code></p>;
        return null;
      })}
    </div>
  );
});

function UserEntry({ entry, busy, onResend }: LiveEntryProps) {
  const full = text(entry.blocks);
  const cut = full.indexOf(REMINDER);
  const words = cut >= 0 ? full.slice(0, cut) : full;
  const reminder = cut >= 0 ? full.slice(cut + 2) : undefined;
  const [editing, setEditing] = useState<string>();
  if (editing !== undefined) {
    return (
      <div className="live-entry live-user editing">
        <textarea rows={3} value={editing} onChange={(e) => setEditing(e.target.value)} aria-label="Edit the message" data-testid="live.edit.input" />
        <div className="actions">
          <button type="button" onClick={() => setEditing(undefined)}>Cancel</button>
          <button type="button" className="primary" disabled={busy || editing.trim() === ''} onClick={() => { onResend(entry.id, editing); setEditing(undefined); }} data-testid="live.edit.send">
            Resend as a new branch
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="live-entry live-user" data-testid="live.entry.user">
      <div className="live-md"><MarkdownText text={words} /></div>
      {reminder && (
        <details className="small" data-testid="live.reminder">
          <summary>Mentioned files, appended for the model</summary>
          <pre className="live-text">{reminder}</pre>
        </details>
      )}
      <button type="button" className="link small" disabled={busy} onClick={() => setEditing(words)} data-testid="live.edit">
        Edit and resend
      </button>
    </div>
  );
}
