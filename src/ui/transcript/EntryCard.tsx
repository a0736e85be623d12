/**
 * One journal entry in the transcript: role, token badge, its blocks. A tool call shows its result
 * beside it (linked at import); a result entry whose call is shown points back to it. Everything
 * renders as text, never as HTML.
 */
import type { ReactNode } from 'react';
import type { Block, Entry, ImageBlock, ToolCallBlock } from '../../core/journal/entry.ts';
import { entryText } from '../../store/view/transcript.ts';
import { formatNumber } from '../common/format.ts';
import { CLIP, Clipped } from './Clipped.tsx';
import { MessageText } from './MessageText.tsx';
import { toolInputText } from './tool-input.ts';


export interface EntryCardProps {
  entry: Entry;
  display: 'full' | 'line';
  tokens: number | undefined;
  counterLabel: string;
  /** Finds an entry by id (for a call's result). */
  byId: (id: string) => Entry | undefined;
  onJump: (id: string) => void;
  /** User entries can be pinned: their exchange is never summarized (A13). */
  pinned?: boolean;
  onTogglePin?: () => void;
  /** Extra header content (summary badges in a compacted context). */
  extra?: ReactNode;
  /** Show long texts whole instead of clipping them (summaries). */
  unclipped?: boolean;
}

export function EntryCard({ entry, display, tokens, counterLabel, byId, onJump, pinned, onTogglePin, extra, unclipped }: EntryCardProps) {
  const classes = ['entry', `role-${entry.role}`, `kind-${entry.kind}`];
  if (entry.flags?.error || entry.blocks.some((b) => b.type === 'tool_result' && b.isError)) classes.push('has-error');
  if (entry.flags?.injected) classes.push('injected');
  if (entry.flags?.sidechain) classes.push('sidechain');
  return (
    <article className={classes.join(' ')} data-testid="transcript.entry" data-entry-id={entry.id} data-role={entry.role} aria-label={`${entry.role} entry ${entry.index + 1}`}>
      <header>
        <span className={`role role-${entry.role}`}>{roleLabel(entry)}</span>
        {entry.kind === 'compaction' && <span className="badge warn">compaction marker{entry.marker?.tokensBefore ? ` · ${formatNumber(entry.marker.tokensBefore)} tokens before` : ''}</span>}
        {entry.flags?.injected && <span className="badge">injected</span>}
        {entry.flags?.error && <span className="badge error">error</span>}
        {entry.flags?.aborted && <span className="badge warn">aborted</span>}
        {extra}
        <span className="spacer" />
        {onTogglePin && (
          <button type="button" className={`link small${pinned ? ' pinned' : ''}`} onClick={onTogglePin} aria-pressed={pinned} data-testid="transcript.entry.pin" title="A pinned exchange is never summarized">
            {pinned ? '📌 pinned' : 'pin'}
          </button>
        )}
        {entry.timestamp !== undefined && <time className="muted small" dateTime={new Date(entry.timestamp).toISOString()}>{new Date(entry.timestamp).toLocaleTimeString()}</time>}
        <span className="muted small">line {entry.line}{entry.lineEnd && entry.lineEnd !== entry.line ? `–${entry.lineEnd}` : ''}</span>
        <span className="badge tokens" data-testid="transcript.entry.tokens" title={`Counted with ${counterLabel}`}>
          {tokens === undefined ? '…' : formatNumber(tokens)} · {counterLabel}
        </span>
      </header>
      {display === 'line' ? (
        <p className="one-line">{oneLine(entry)}</p>
      ) : (
        entry.blocks.map((block, i) => <BlockView key={i} block={block} entry={entry} byId={byId} onJump={onJump} clip={unclipped ? Infinity : CLIP} />)
      )}
    </article>
  );
}

function roleLabel(entry: Entry): string {
  if (entry.kind === 'event') return 'event';
  if (entry.role === 'tool') return 'tool result';
  return entry.role;
}

function oneLine(entry: Entry): string {
  const calls = entry.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call');
  if (calls.length > 0) return calls.map((call) => `${call.name}(${preview(call.input, 80)})`).join(' · ');
  const text = entryText(entry).replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 160)}…` : text || '(no text)';
}

function preview(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function BlockView({ block, entry, byId, onJump, clip }: { block: Block; entry: Entry; byId: EntryCardProps['byId']; onJump: EntryCardProps['onJump']; clip: number }) {
  switch (block.type) {
    case 'text':
      return <MessageText text={block.text} entry={entry} max={clip} />;
    case 'thinking':
      return (
        <details className="thinking">
          <summary>thinking{block.text.length === 0 ? ' (not shown by the source)' : ` · ${formatNumber(block.text.length)} chars`}{block.redacted ? ' · redacted' : ''}</summary>
          {block.text.length > 0 && <Clipped className="text thinking-text" text={block.text} />}
        </details>
      );
    case 'image':
      return <ImagePlaceholder image={block} />;
    case 'tool_call': {
      const result = block.resultEntryId ? byId(block.resultEntryId) : undefined;
      const resultBlock = result?.blocks.find((b) => b.type === 'tool_result' && b.callId === block.callId);
      return (
        <div className="tool-pair" data-testid="transcript.tool-pair">
          <div className="tool-call">
            <div className="tool-name">▶ {block.name} <span className="muted small">{block.callId}</span></div>
            <Clipped className="code" label={`Input of ${block.name}`} text={toolInputText(block.input)} />
          </div>
          <div className={`tool-result${resultBlock && resultBlock.type === 'tool_result' && resultBlock.isError ? ' is-error' : ''}`}>
            {resultBlock && resultBlock.type === 'tool_result' ? (
              <>
                <div className="tool-name">◀ result{resultBlock.isError ? ' · error' : ''}</div>
                <ResultContent block={resultBlock} />
              </>
            ) : (
              <div className="muted small" data-testid="transcript.orphan-call">No result recorded for this call (aborted or cut off).</div>
            )}
          </div>
        </div>
      );
    }
    case 'tool_result': {
      const call = block.callEntryId ? byId(block.callEntryId) : undefined;
      if (call && call.index !== entry.index) {
        return (
          <p className="small muted">
            Result of {block.toolName ?? 'a tool call'}{block.isError ? ' (error)' : ''}, shown beside its call.{' '}
            <button type="button" className="link" onClick={() => onJump(call.id)}>Go to the call</button>
          </p>
        );
      }
      return (
        <div className={`tool-result standalone${block.isError ? ' is-error' : ''}`}>
          <div className="tool-name">◀ result {block.toolName ?? ''} <span className="badge warn">no matching call</span></div>
          <ResultContent block={block} />
        </div>
      );
    }
  }
}

function ResultContent({ block }: { block: Extract<Block, { type: 'tool_result' }> }) {
  return (
    <>
      {block.content.map((part, i) => (part.type === 'text' ? <Clipped key={i} className="code" label={`Result of ${block.toolName ?? 'a tool call'}`} text={part.text} /> : <ImagePlaceholder key={i} image={part} />))}
    </>
  );
}

function ImagePlaceholder({ image }: { image: ImageBlock }) {
  const size = image.bytes > 0 ? ` · ${(image.bytes / 1024).toFixed(1)} KB` : image.source === 'url' ? ' · linked, not loaded' : '';
  return <div className="image-placeholder" data-testid="transcript.image">🖼 {image.mediaType}{size}</div>;
}
