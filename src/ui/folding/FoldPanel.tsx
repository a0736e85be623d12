/**
 * Memory folding (seed 003): the fold timeline of the branch, the window's zones, the fold events
 * with their triggers and numbers, a replay slider, recall by query, and any block opened back to
 * its source. Folding runs in the worker; this panel only draws what it returns.
 */
import { useEffect, useMemo, useState } from 'react';
import { StartChoice } from '../common/StartChoice.tsx';
import type { Entry } from '../../core/journal/entry.ts';
import type { ConversationRow } from '../../db/schema.ts';
import { errorMessage } from '../../store/actions.ts';
import { useAppStore } from '../../store/store.ts';
import { modelLabel, summarizerFields } from '../../store/summarizer-request.ts';
import { cancelFoldJob, fold, foldJobId } from '../../store/fold-actions.ts';
import { DEFAULT_REPLAY_FROM, type ReplayFrom } from '../../store/view/replay-settings.ts';
import { configOptionSpecs } from '../../store/view/strategies.ts';
import type { FoldView, RecallRequest } from '../../worker/fold/fold-protocol.ts';
import type { JobProgress } from '../../worker/engine/protocol.ts';
import { OptionsForm } from '../strategies/OptionsForm.tsx';
import { FoldTimeline } from '../timeline/FoldTimeline.tsx';
import { PartitionBar } from '../timeline/PartitionBar.tsx';
import { publishFold } from '../test-api.ts';
import { BlockDetail } from './BlockDetail.tsx';
import { FoldSummariesControl } from './FoldSummariesControl.tsx';
import { RetrievedZone } from './RetrievedZone.tsx';
import { SimulatePanel } from './SimulatePanel.tsx';
import { useBookmarks } from './use-bookmarks.ts';
import { useRefold } from './use-refold.ts';

const EMPTY: Record<string, string> = {};
/** Folding's options, as the Compare tab lists them for its `folding` configuration. */
const FOLD_OPTIONS = configOptionSpecs('folding');

export function FoldPanel({ conversation, journal, leafId }: { conversation: ConversationRow; journal: readonly Entry[]; leafId: string | undefined }) {
  const counter = useAppStore((s) => s.counter);
  const contextWindow = useAppStore((s) => s.windowTokens);
  const values = useAppStore((s) => s.optionValues.folding ?? EMPTY);
  const setOption = useAppStore((s) => s.setOption);
  const resetOptions = useAppStore((s) => s.resetOptions);
  const [upTo, setUpTo] = useState<number | undefined>();
  // Where the fold starts on the branch; another start is another input: the position and recalls start over.
  const from = useAppStore((s) => s.replayFrom);
  const setFromState = useAppStore((s) => s.setReplayFrom);
  const [query, setQuery] = useState('');
  // Blocks expanded into the retrieved zone, at the replay position where that was done.
  const [recalls, setRecalls] = useState<RecallRequest[]>([]);
  const [view, setView] = useState<FoldView>();
  const [error, setError] = useState<string>();
  const [openId, setOpenId] = useState<string>();
  const [playing, setPlaying] = useState(false);
  // Block indexes by extraction (default) or by the model of Settings > Models.
  const model = useAppStore(modelLabel);
  const setSettingsOpen = useAppStore((s) => s.setSettingsOpen);
  // Kept in the store, so resuming interrupted model summaries can open the tab with them on.
  const foldModel = useAppStore((s) => s.foldModel[conversation.id]);
  const setFoldModel = useAppStore((s) => s.setFoldModel);
  const useModel = foldModel !== undefined;
  const selfCheck = foldModel?.selfCheck ?? false;
  const setUseModel = (on: boolean) => setFoldModel(conversation.id, on ? { selfCheck } : undefined);
  const setSelfCheck = (on: boolean) => setFoldModel(conversation.id, useModel ? { selfCheck: on } : undefined);
  const [progress, setProgress] = useState<JobProgress>();
  // Model summaries cost money and time: a new version's reload waits for them (UpdatePrompt).
  const beginActivity = useAppStore((s) => s.beginActivity);
  const summarizing = useModel && model !== undefined && progress !== undefined;
  useEffect(() => (summarizing ? beginActivity('Making fold summaries with the model') : undefined), [summarizing, beginActivity]);

  // A live session grows while the tab is open: its new entries are folded again (in the worker),
  // the selection, replay position, query and zoom kept.
  const { revision, gate, currentSize } = useRefold(journal.length, useModel);

  // Bookmarks are kept per conversation in the library and folded in as the `bookmarks` option.
  const marks = useBookmarks(conversation.id, values);
  const request = useMemo(
    () => ({ conversationId: conversation.id, options: marks.options, counter, contextWindow, ...(leafId ? { leafId } : {}), ...(from !== DEFAULT_REPLAY_FROM ? { from } : {}), ...(upTo !== undefined ? { upToIteration: upTo } : {}), ...(query.trim() ? { query: query.trim() } : {}), ...(recalls.length ? { recalls } : {}) }),
    [conversation.id, marks.options, counter, contextWindow, leafId, from, upTo, query, recalls],
  );
  const setFrom = (next: ReplayFrom) => {
    setPlaying(false);
    setUpTo(undefined);
    setRecalls([]);
    setFromState(next);
  };
  useEffect(() => {
    if (!marks.ready) return;
    let live = true;
    // Progress comes over its own port: a late message must not outlive the result.
    let settled = false;
    const jobId = foldJobId('fold');
    gate.started(currentSize());
    const timer = setTimeout(() => {
      // The model summarizes the full branch; the replay shows the model summaries already made.
      const withModel = async () => (useModel && model !== undefined ? { ...(await summarizerFields()), jobId, selfCheck, cachedOnly: request.upToIteration !== undefined } : {});
      withModel().then((fields) => fold({ ...request, ...fields }, (p: JobProgress) => live && !settled && setProgress(p))).then(
        (result) => {
          settled = true;
          if (!live) return;
          gate.settled();
          publishFold(result);
          setView(result);
          setError(undefined);
          setProgress(undefined);
        },
        (err: unknown) => {
          settled = true;
          if (!live) return;
          gate.settled();
          setError(errorMessage(err));
          setProgress(undefined);
        },
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
      cancelFoldJob(jobId);
      gate.settled();
    };
    // `revision` moves when the grown journal is due to be folded again.
  }, [request, useModel, selfCheck, model, marks.ready, gate, currentSize, revision]);

  // Replay: step one iteration at a time while playing.
  useEffect(() => {
    if (!playing || !view) return;
    const next = (upTo ?? -1) + 1;
    if (next >= view.totalIterations) {
      setPlaying(false);
      setUpTo(undefined);
      return;
    }
    const timer = setTimeout(() => setUpTo(next), 250);
    return () => clearTimeout(timer);
  }, [playing, upTo, view]);

  const bookmarks = marks.list;
  const open = view?.blocks.find((block) => block.id === openId);
  const toggleBookmark = marks.toggle;
  const hitIds = new Set(view?.hits.map((hit) => hit.blockId));
  const position = view ? (upTo ?? view.totalIterations - 1) : 0;
  // Recalls later than the position cannot have happened yet: moving back drops them.
  const expand = (blockId: string) => setRecalls((list) => [...list.filter((r) => r.iteration <= position && !(r.iteration === position && r.blockId === blockId)), { iteration: position, blockId }]);
  const retrievedIds = new Set(view?.retrieved.map((r) => r.blockId));

  return (
    <section className="fold-panel" data-testid="fold">
      {error && <p className="error" role="alert" data-testid="fold.error">{error}</p>}
      <FoldSummariesControl useModel={useModel} onUseModel={setUseModel} selfCheck={selfCheck} onSelfCheck={setSelfCheck} model={model} progress={progress} view={view} onOpenSettings={() => setSettingsOpen(true)} />
      <div className="actions">
        <StartChoice value={from} onChange={setFrom} testId="fold.from" what="the fold" />
      </div>
      {view && (
        <>
          <p className="small" data-testid="fold.summary">
            <strong>{view.timeline.iterations.toLocaleString('en-US')}</strong> of {view.totalIterations.toLocaleString('en-US')} iterations · tokens {view.tokensBefore.toLocaleString('en-US')} → <strong>{view.tokensAfter.toLocaleString('en-US')}</strong>
            {view.tokensBefore > 0 && ` (saved ${Math.round((1 - view.tokensAfter / view.tokensBefore) * 100)}%)`} · {view.blocks.length} blocks · {view.summariesMade} new summaries (the rest reused by source hash)
            {view.storedAt !== undefined && <span data-testid="fold.stored"> · shown from the library (folded {new Date(view.storedAt).toLocaleString('en-US')})</span>}
          </p>
          {view.scope
            ? <p className="small muted" data-testid="fold.scope" data-from={view.scope.from}>{view.scope.note}</p>
            : view.startNote && <p className="small muted" data-testid="fold.start">{view.startNote}</p>}
          <FoldTimeline data={view.timeline} onOpenBlock={setOpenId} {...(upTo !== undefined ? { currentIteration: upTo } : {})} />
          <div className="actions">
            <button type="button" onClick={() => setPlaying(!playing)} data-testid="fold.play">{playing ? 'Pause' : 'Replay'}</button>
            <label className="field inline">
              <span>As of iteration</span>
              <input type="range" min={0} max={Math.max(0, view.totalIterations - 1)} value={upTo ?? view.totalIterations - 1} onChange={(e) => setUpTo(Number(e.target.value) >= view.totalIterations - 1 ? undefined : Number(e.target.value))} data-testid="fold.slider" aria-label="Replay position" />
              <span className="small">{(upTo ?? view.totalIterations - 1) + 1}</span>
            </label>
            <label className="field inline">
              <span>query_history</span>
              <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="file, keyword…" data-testid="fold.query" />
            </label>
            {query.trim() && <span className="small" data-testid="fold.hits">{view.hits.length} matching blocks{view.hits.length > 0 && ': '}{view.blocks.filter((b) => hitIds.has(b.id)).slice(0, 8).map((b) => (
              <span key={b.id} className="hit">
                <button type="button" className="link" onClick={() => setOpenId(b.id)}>{b.title.slice(0, 30)}</button>
                {b.level >= 2 && (
                  <button type="button" className="link" onClick={() => expand(b.id)} disabled={retrievedIds.has(b.id)} aria-label={`Expand ${b.title.slice(0, 30)} into the retrieved zone`} data-testid="fold.expand" data-block-id={b.id}>
                    {retrievedIds.has(b.id) ? '(retrieved)' : '↧ expand'}
                  </button>
                )}
              </span>
            ))}</span>}
          </div>
          <PartitionBar partitions={view.timeline.partitions} />
          <RetrievedZone view={view} recalls={recalls} onOpen={setOpenId} />
          <SimulatePanel request={request} iterations={view.timeline.iterations} model={model} />
          {open && <BlockDetail block={open} journal={journal} bookmarked={bookmarks.includes(String(open.from))} onBookmark={() => toggleBookmark(open.from)} onClose={() => setOpenId(undefined)} {...(open.level >= 2 ? { onExpand: () => expand(open.id), retrieved: retrievedIds.has(open.id) } : {})} />}
          <details className="fold-events">
            <summary>{view.events.length} fold events{view.events.length > 300 && ' (the last 300)'}</summary>
            <ul className="small" data-testid="fold.events">
              {view.events.slice(-300).map((event, i) => (
                <li key={i}>
                  @{event.iteration + 1} <strong>{event.trigger}</strong> → {event.action} {Object.entries(event.numbers).map(([k, v]) => `${k} ${Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(2)}`).join(', ')}
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
      {!view && !error && <p className="muted">Folding…</p>}
      <details>
        <summary>Folding options</summary>
        <OptionsForm specs={FOLD_OPTIONS} values={values} error={undefined} onChange={(name, value) => setOption('folding', name, value)} onReset={() => resetOptions('folding')} />
      </details>
    </section>
  );
}
