/**
 * The open conversation: what was imported (format, entries, problems), what its source said about
 * the session (cwd, branch, start, model, version), token totals per role and
 * kind with the chosen counter, the window gauge for the shown branch, and the transcript itself.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import type { Entry } from '../../core/journal/entry.ts';
import type { Branch } from '../../core/journal/tree.ts';
import type { ConversationRow, EntryRow } from '../../db/schema.ts';
import { ensureCounts } from '../../store/actions.ts';
import { countsKey, latestCounts } from '../../store/counts-slice.ts';
import { conversationRow, pinnedEntryIds, togglePin } from '../../store/journal-reads.ts';
import { useAppStore } from '../../store/store.ts';
import { branchPath, gaugeContext, shownLeaf, viewRows } from '../../store/view/transcript.ts';
import { COUNTER_LABELS, FORMAT_LABELS } from '../../store/view/vocabulary.ts';
import { TokenTotals } from '../tokens/TokenTotals.tsx';
import { WindowGauge } from '../tokens/WindowGauge.tsx';
import { BranchPicker } from './BranchPicker.tsx';
import { SessionFactsLine } from './SessionFactsLine.tsx';
import { SubagentOf } from './SubagentOf.tsx';
import { TranscriptList } from './TranscriptList.tsx';
import { useBranches } from './use-branches.ts';
import { useEntries } from './use-entries.ts';
import { VerbosityToggle } from './VerbosityToggle.tsx';
import { formatNumber } from '../common/format.ts';
import { tabKeyTarget } from '../common/tab-keys.ts';
import type { ConversationTab } from '../../store/compact-slice.ts';
// The compaction panels (strategies, exports) load on first use: the first screen stays light.
const CompactPanel = lazy(() => import('../strategies/CompactPanel.tsx').then((m) => ({ default: m.CompactPanel })));
const FoldPanel = lazy(() => import('../folding/FoldPanel.tsx').then((m) => ({ default: m.FoldPanel })));
const RunsPanel = lazy(() => import('../strategies/RunsPanel.tsx').then((m) => ({ default: m.RunsPanel })));
const ComparePanel = lazy(() => import('../compare/ComparePanel.tsx').then((m) => ({ default: m.ComparePanel })));
const SweepPanel = lazy(() => import('../sweep/SweepPanel.tsx').then((m) => ({ default: m.SweepPanel })));
const LivePanel = lazy(() => import('../live/LivePanel.tsx').then((m) => ({ default: m.LivePanel })));

const TAB_LABELS: Record<ConversationTab, string> = { live: 'Live', transcript: 'Transcript', compact: 'Compact', runs: 'Runs', fold: 'Fold L0–L4', compare: 'Compare', sweep: 'Sweep' };
const TABS = ['transcript', 'compact', 'runs', 'fold', 'compare', 'sweep'] as const;

export function ConversationView({ conversationId }: { conversationId: string }) {
  const conversation = useLiveQuery(() => conversationRow(conversationId), [conversationId]);
  if (conversation === undefined) return <p className="muted">Loading…</p>;
  // A live session's journal grows (each entry is a new importId): its view stays mounted meanwhile.
  return <LoadedConversation key={conversation.origin === 'live' ? conversation.id : `${conversation.id}|${conversation.importId}`} conversation={conversation} />;
}

function LoadedConversation({ conversation }: { conversation: ConversationRow }) {
  // A live session's journal only grows: each new entry is read alone, and while it is counted
  // the counts of the shorter journal stay on screen (no job bar, no totals blinking out).
  const live = conversation.origin === 'live';
  const state = useEntries(conversation.id, conversation.importId, { grows: live });
  const counter = useAppStore((s) => s.counter);
  const key = countsKey(conversation.id, conversation.importId, counter);
  const counts = useAppStore((s) => s.counts[key] ?? (live ? latestCounts(s.counts, conversation.id, counter) : undefined));
  const countError = useAppStore((s) => s.countErrors[key]);

  useEffect(() => {
    void ensureCounts(conversation.id, conversation.importId, counter, { quiet: live });
  }, [conversation.id, conversation.importId, counter, live]);

  return (
    <section className="conversation" aria-labelledby="conversation-title" data-testid="conversation">
      <header className="conversation-header">
        <h2 id="conversation-title" data-testid="conversation.title">{conversation.title}</h2>
        <p className="muted small" data-testid="conversation.meta">
          {FORMAT_LABELS[conversation.format]} · {conversation.fileName} · {(conversation.size / 1024).toFixed(0)} KB ·{' '}
          <span data-testid="conversation.entries">{formatNumber(conversation.entryCount)}</span> entries from {formatNumber(conversation.lines)} lines
          {conversation.ignoredLines > 0 && ` (${formatNumber(conversation.ignoredLines)} metadata lines not shown)`}
          {(conversation.blankLines ?? 0) > 0 && <span data-testid="conversation.blank-lines">{` · ${formatNumber(conversation.blankLines ?? 0)} blank`}</span>}
        </p>
        <SessionFactsLine meta={conversation.meta} />
        <SubagentOf conversation={conversation} />
      </header>
      {conversation.issues.length > 0 && <IssueList conversation={conversation} />}
      {countError && <p className="error" role="alert">Counting failed: {countError}</p>}
      {counts ? <TokenTotals counts={counts} /> : !countError && <p className="muted">Counting tokens with {COUNTER_LABELS[counter]}…</p>}
      {state.status === 'loading' && <p className="muted">Loading entries…</p>}
      {state.status === 'error' && <p className="error" role="alert">Could not load the entries: {state.message}</p>}
      {state.status === 'ready' && <TranscriptSection conversation={conversation} entries={state.entries} totals={counts?.totals} counterLabel={counts?.label ?? COUNTER_LABELS[counter]} />}
    </section>
  );
}

function IssueList({ conversation }: { conversation: ConversationRow }) {
  const shown = conversation.issues.slice(0, 50);
  // The row lists at most the first 1000 problems; issueCount is the true number.
  const total = conversation.issueCount ?? conversation.issues.length;
  return (
    <details className="issues" open={conversation.issues.length <= 5} data-testid="conversation.issues">
      <summary className="warn">
        {formatNumber(total)} line{total === 1 ? '' : 's'} could not be imported; every other line was kept
      </summary>
      <ul className="small">
        {shown.map((issue) => (
          <li key={`${issue.line}-${issue.message}`} data-testid="conversation.issue">
            <strong>line {issue.line}</strong>: {issue.message}
          </li>
        ))}
        {total > shown.length && <li>…and {formatNumber(total - shown.length)} more</li>}
      </ul>
    </details>
  );
}

type TranscriptProps = { conversation: ConversationRow; entries: readonly EntryRow[]; totals: Uint32Array | undefined; counterLabel: string };

/** The branches of a large journal are worked out in slices (use-branches.ts): the view waits for them. */
function TranscriptSection(props: TranscriptProps) {
  const shape = useBranches(props.entries);
  if (shape === undefined) return <p className="muted" data-testid="transcript.branches-pending">Finding branches…</p>;
  return <BranchedTranscript {...props} branches={shape.branches} byId={shape.byId} />;
}

function BranchedTranscript({ conversation, entries, totals, counterLabel, branches, byId }: TranscriptProps & { branches: Branch[]; byId: ReadonlyMap<string, Entry> }) {
  const verbosity = useAppStore((s) => s.verbosity);
  const chosenLeaf = useAppStore((s) => s.branchLeaf[conversation.id]);
  const setBranchLeaf = useAppStore((s) => s.setBranchLeaf);
  const live = conversation.origin === 'live';
  const chosenTab = useAppStore((s) => s.tab);
  const tab = chosenTab === 'live' && !live ? 'transcript' : chosenTab;
  const setTab = useAppStore((s) => s.setTab);
  const pins = useLiveQuery(() => pinnedEntryIds(conversation.id), [conversation.id]);
  const pinned = useMemo(() => pins ?? new Set<string>(), [pins]);
  const leafId = shownLeaf(entries, branches, chosenLeaf);
  const path = useMemo(() => branchPath(entries, branches.length, leafId, byId), [entries, branches.length, leafId, byId]);
  const rows = useMemo(() => viewRows(entries, path, verbosity), [entries, path, verbosity]);
  const unseenEstimate = useAppStore((s) => s.unseenEstimate);
  const replayFrom = useAppStore((s) => s.replayFrom);
  // What the agent's model is sent at the end of the branch, read as the Start choice reads it (gauge-context.ts).
  const gauge = useMemo(() => (totals ? gaugeContext(entries, path, totals, replayFrom, unseenEstimate) : undefined), [entries, path, totals, replayFrom, unseenEstimate]);
  const onTogglePin = (entryId: string) => void togglePin(conversation.id, entryId, pinned.has(entryId));

  const shownTabs: readonly ConversationTab[] = live ? ['live', ...TABS] : TABS;
  return (
    <>
      <WindowGauge context={gauge} label={branches.length > 1 ? `branch of ${path.length} entries, ${counterLabel}` : counterLabel} />
      <div className="toolbar">
        <div className="tabs" role="tablist" aria-label="View" onKeyDown={(event) => {
          // WAI-ARIA tabs: arrows, Home and End move focus along the tabs and show the one focused.
          const at = tabKeyTarget(event.key, shownTabs.indexOf(tab), shownTabs.length);
          if (at === undefined) return;
          event.preventDefault();
          setTab(shownTabs[at]!);
          event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[at]?.focus();
        }}>
          {shownTabs.map((id) => (
            <button key={id} id={`tab-${id}`} type="button" role="tab" aria-selected={tab === id} aria-controls="tab-panel" tabIndex={tab === id ? 0 : -1} className={tab === id ? 'tab selected' : 'tab'} onClick={() => setTab(id)} data-testid={`tab.${id}`}>
              {TAB_LABELS[id]}
            </button>
          ))}
        </div>
        <BranchPicker branches={branches} leafId={leafId} onPick={(id) => setBranchLeaf(conversation.id, id)} />
        {tab === 'transcript' && <VerbosityToggle />}
        {tab === 'transcript' && <span className="muted small" data-testid="transcript.count">{formatNumber(rows.length)} rows</span>}
      </div>
      <div className="tab-panel" id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {tab === 'transcript' && <TranscriptList entries={entries} byId={byId} rows={rows} totals={totals} counterLabel={counterLabel} pinned={pinned} onTogglePin={onTogglePin} />}
      <Suspense fallback={<p className="muted">Loading…</p>}>
        {tab === 'live' && <LivePanel conversation={conversation} entries={entries} />}
        {tab === 'compact' && <CompactPanel conversation={conversation} leafId={branches.length > 1 ? leafId : undefined} entryCount={entries.length} entries={entries} />}
        {tab === 'runs' && <RunsPanel conversation={conversation} journal={entries} />}
        {tab === 'compare' && <ComparePanel key={conversation.id} conversation={conversation} journal={entries} leafId={branches.length > 1 ? leafId : undefined} />}
        {tab === 'sweep' && <SweepPanel conversation={conversation} />}
        {tab === 'fold' && <FoldPanel key={conversation.id} conversation={conversation} journal={entries} leafId={branches.length > 1 ? leafId : undefined} />}
      </Suspense>
      </div>
    </>
  );
}
