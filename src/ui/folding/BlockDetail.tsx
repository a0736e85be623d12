/**
 * An opened folded block (unfold, F12): its summary, keywords, entities, state changes, and the
 * original entries from the journal; a folded one can be expanded into the retrieved zone (F7).
 */
import type { Entry } from '../../core/journal/entry.ts';
import type { FoldBlockView } from '../../worker/fold/fold-protocol.ts';
import { EntryCard } from '../transcript/EntryCard.tsx';
import { MarkdownText } from '../common/MarkdownText.tsx';

export function BlockDetail({ block, journal, bookmarked, onBookmark, onClose, onExpand, retrieved = false }: { block: FoldBlockView; journal: readonly Entry[]; bookmarked: boolean; onBookmark: () => void; onClose: () => void; onExpand?: () => void; retrieved?: boolean }) {
  const source = journal.slice(block.journalFrom, block.journalTo + 1).filter((entry) => entry.kind !== 'event');
  const byId = new Map(journal.map((entry) => [entry.id, entry]));
  return (
    <section className="block-detail" aria-label={`Folded block ${block.title}`} data-testid="fold.detail" data-block-id={block.id}>
      <header className="actions">
        <strong>L{block.level} · iterations {block.from + 1}–{block.to + 1}</strong>
        <span className="muted small">importance {block.importance.toFixed(2)} · {block.tokens.original.toLocaleString('en-US')} → {block.tokens.folded.toLocaleString('en-US')} tokens · source {block.sourceHash.slice(0, 8)}</span>
        <button type="button" onClick={onBookmark} aria-pressed={bookmarked} data-testid="fold.bookmark">
          {bookmarked ? '★ Bookmarked (kept at L0)' : '☆ Bookmark the first iteration'}
        </button>
        {onExpand && (
          <button type="button" onClick={onExpand} disabled={retrieved} data-testid="fold.detail.expand">
            {retrieved ? 'In the retrieved zone' : '↧ Expand into the retrieved zone'}
          </button>
        )}
        <button type="button" className="link" onClick={onClose} data-testid="fold.detail.close">Close</button>
      </header>
      <h4>{block.title}</h4>
      {block.content && <div className="small"><MarkdownText text={block.content} /></div>}
      {block.outcome && <p className="small">Outcome: {block.outcome}</p>}
      <p className="small">
        <strong>Keywords</strong> {block.keywords.join(', ') || '—'} · <strong>Entities</strong> <span data-testid="fold.entities">{block.entities.join(', ') || '—'}</span>
      </p>
      {block.stateChanges.length > 0 && <p className="small"><strong>State changes</strong> {block.stateChanges.join('; ')}</p>}
      {block.text && (
        <details>
          <summary>What the model sees at L{block.level}</summary>
          <pre className="small">{block.text}</pre>
        </details>
      )}
      <h4>Original entries ({source.length})</h4>
      <div className="block-source" data-testid="fold.source">
        {source.slice(0, 200).map((entry) => (
          <EntryCard key={entry.id} entry={entry} display="line" tokens={undefined} counterLabel="" byId={(id) => byId.get(id)} onJump={() => undefined} />
        ))}
        {source.length > 200 && <p className="muted small">…and {source.length - 200} more (open the Transcript tab for all).</p>}
      </div>
    </section>
  );
}
