/**
 * One compaction run: the context the model would see (summaries marked, each openable back to
 * the entries it replaced), its numbers, and exports (OpenAI, Anthropic, Markdown).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ContextEntry } from '../../core/compaction/types.ts';
import type { Entry } from '../../core/journal/entry.ts';
import { formatUsd, priceFor, PRICES_AS_OF, usageCost } from '../../store/view/prices.ts';
import { contextExport, roughTokens, type ContextExportKind } from '../../store/view/compaction.ts';
import type { CompactionRow } from '../../db/schema.ts';
import { download, slug } from '../common/download.ts';
import { VirtualList, type VirtualListHandle } from '../common/VirtualList.tsx';
import { EntryCard } from '../transcript/EntryCard.tsx';
import { restoreContext } from './context.ts';
import { FateStrip } from './FateStrip.tsx';
import { MemoriesView } from './MemoriesView.tsx';
import { RunSent } from './RunSent.tsx';
import { NoteText } from '../common/NoteText.tsx';

export function RunResult({ row, journal, title }: { row: CompactionRow; journal: readonly Entry[]; title: string }) {
  const byId = useMemo(() => new Map(journal.map((entry) => [entry.id, entry])), [journal]);
  const heading = useRef<HTMLHeadingElement>(null);
  // A run just made replaces the button that started it: focus would fall to the page, so the result's heading takes it.
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus();
  }, []);
  const { context, missing } = useMemo(() => restoreContext(row, byId), [row, byId]);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const record = row.record;
  const fmt = (n: number) => n.toLocaleString('en-US');
  const name = `${slug(title)}-${row.strategy}`;
  const list = useRef<VirtualListHandle>(null);
  const made = useMemo(() => context.flatMap((item, i) => (item.origin === 'summary' ? [{ i, count: item.replaces?.count }] : [])), [context]);

  const exportAs = (kind: ContextExportKind) => {
    const file = contextExport(kind, context, title);
    download(`${name}.${file.extension}`, file.text, file.type);
  };

  return (
    <section className="run-result" data-testid="run">
      <header>
        <h3 ref={heading} tabIndex={-1} data-testid="run.heading">
          {row.strategy} · {new Date(row.createdAt).toLocaleString()}
        </h3>
        <p data-testid="run.tokens">
          <strong>{fmt(record.tokens_before)}</strong> → <strong data-testid="run.tokens-after">{fmt(record.tokens_after)}</strong> tokens ({record.counter}) · {record.summarized_messages} summarized, {record.kept_messages} kept, {record.compressed_messages} compressed, {record.dropped_messages} dropped · summarizer {record.summarizer} · {fmt(record.duration_ms)} ms
        </p>
        <RunSent row={row} />
        {record.summary_usage.input + record.summary_usage.output > 0 && (
          <p className="small" data-testid="run.usage">
            Summarizer {record.summarizer} · {record.summarizer_model}: {fmt(record.summary_usage.input)} tokens in, {fmt(record.summary_usage.output)} out
            {(() => {
              const priced = priceFor(record.summarizer_model);
              return priced ? ` · ${formatUsd(usageCost(record.summary_usage, priced.price))} at ${priced.model} prices (as of ${PRICES_AS_OF})` : record.summarizer === 'offline' ? ' (offline: no cost)' : ' · no price known for this model';
            })()}
            {record.prompts.length > 0 && ` · prompts ${record.prompts.map((id) => `${id}@${record.prompt_versions?.[id] ?? '?'}`).join(', ')}`}
          </p>
        )}
        {row.plan.fates.length > 0 && <FateStrip fates={row.plan.fates} cut={row.plan.cut?.index} testId="run.strip" />}
        {missing > 0 && <p className="warn">{missing} entries of this run are no longer in the journal (it was re-imported).</p>}
        <div className="actions">
          <button type="button" onClick={() => exportAs('openai')} data-testid="run.export.openai">Export OpenAI JSON</button>
          <button type="button" onClick={() => exportAs('anthropic')} data-testid="run.export.anthropic">Export Anthropic JSON</button>
          <button type="button" onClick={() => exportAs('markdown')} data-testid="run.export.markdown">Export Markdown</button>
        </div>
        {record.notes.length > 0 && (
          <ul className="small notes">
            {record.notes.map((note, i) => (
              <li key={i}><NoteText note={note} byId={(id) => byId.get(id)} /></li>
            ))}
          </ul>
        )}
        <MemoriesView plan={row.plan} after={typeof row.previous?.state?.memories === 'string' ? row.previous.state.memories : undefined} />
        {made.length > 0 && (
          <p className="small" data-testid="run.summaries">
            Summaries in this context:{' '}
            {made.map(({ i, count }) => (
              <button key={i} type="button" className="link" onClick={() => list.current?.scrollToIndex(i)} data-testid="run.goto-summary">
                entry {i + 1}{count ? ` (replaces ${count})` : ''}
              </button>
            ))}
          </p>
        )}
      </header>
      <VirtualList
        handle={list}
        count={context.length}
        estimate={() => 160}
        label={`Compacted context, ${context.length} entries`}
        testId="run.context"
        render={(i) => {
          const item = context[i];
          if (!item) return null;
          return <ContextItem item={item} journal={journal} byId={byId} open={open.has(i)} onToggle={() => setOpen((s) => toggle(s, i))} tokens={roughTokens(item.entry)} />;
        }}
      />
    </section>
  );
}

function toggle(set: Set<number>, i: number): Set<number> {
  const next = new Set(set);
  if (next.has(i)) next.delete(i);
  else next.add(i);
  return next;
}

function ContextItem({ item, journal, byId, open, onToggle, tokens }: { item: ContextEntry; journal: readonly Entry[]; byId: ReadonlyMap<string, Entry>; open: boolean; onToggle: () => void; tokens: number }) {
  const replaced = useMemo(() => {
    if (!open || !item.replaces) return [];
    const from = byId.get(item.replaces.fromId)?.index;
    const to = byId.get(item.replaces.toId)?.index;
    return from === undefined || to === undefined ? [] : journal.slice(from, to + 1);
  }, [open, item.replaces, byId, journal]);
  const extra =
    item.origin === 'summary' ? (
      <>
        <span className="badge summary" data-testid="run.summary-badge">summary{item.replaces ? ` · replaces ${item.replaces.count} entries` : ''}</span>
        {item.replaces && (
          <button type="button" className="link small" onClick={onToggle} aria-expanded={open} data-testid="run.summary-open">
            {open ? 'Hide the source' : 'Open the source'}
          </button>
        )}
      </>
    ) : item.origin === 'compressed' ? (
      <span className="badge warn">compressed for history</span>
    ) : item.origin === 'synthetic' ? (
      <span className="badge">added by the strategy</span>
    ) : null;
  return (
    <div className={item.origin === 'summary' ? 'context-summary' : undefined} data-testid="run.context-entry" data-origin={item.origin}>
      <EntryCard entry={item.entry} display="full" tokens={tokens} counterLabel="chars/4" byId={(id) => byId.get(id)} onJump={() => undefined} extra={extra} unclipped={item.origin === 'summary'} />
      {open && (
        <div className="replaced" data-testid="run.source">
          {replaced.map((entry) => (
            <EntryCard key={entry.id} entry={entry} display="line" tokens={undefined} counterLabel="" byId={(id) => byId.get(id)} onJump={() => undefined} />
          ))}
        </div>
      )}
    </div>
  );
}
