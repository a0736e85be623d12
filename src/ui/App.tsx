/**
 * The app shell: header (counter), library on the left (import, examples, conversations), the open
 * conversation on the right. On the very first visit it seeds the generated demo session.
 */
import { lazy, Suspense, useEffect } from 'react';
import { cancelJob } from '../store/actions.ts';
import { seedDemoOnce } from '../store/demo-seed.ts';
import { useAppStore } from '../store/store.ts';
import { ProgressBar } from './common/ProgressBar.tsx';
import { ResumeOffer } from './common/ResumeOffer.tsx';
import { SchemaBanner } from './common/SchemaBanner.tsx';
import { OfflineNotice } from './common/OfflineNotice.tsx';
import { LibraryBoundary } from './common/LibraryBoundary.tsx';
import { ImportNotice } from './library/ImportNotice.tsx';
import { ConversationList } from './library/ConversationList.tsx';
import { ImportControls } from './library/ImportControls.tsx';
import { NewLiveSessionButton } from './live/NewLiveSessionButton.tsx';
import { CounterSelect } from './tokens/CounterSelect.tsx';
import { ConversationView } from './transcript/ConversationView.tsx';

// Model settings pull in WebLLM's model list: loaded only when opened.
const ModelsDialog = lazy(() => import('./settings/ModelsDialog.tsx').then((m) => ({ default: m.ModelsDialog })));

export function App() {
  const selectedId = useAppStore((state) => state.selectedId);
  const settingsOpen = useAppStore((state) => state.settingsOpen);
  const setSettingsOpen = useAppStore((state) => state.setSettingsOpen);
  const summarizerKind = useAppStore((state) => state.summarizerKind);
  const remote = useAppStore((state) => state.remote);
  const localModelId = useAppStore((state) => state.localModelId);
  const summarizerLabel = summarizerKind === 'remote' ? `${remote.presetId} · ${remote.model}` : summarizerKind === 'local' ? `local · ${localModelId ?? 'no model'}` : 'offline';

  useEffect(() => {
    void seedDemoOnce();
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <h1>
          <span className="logo" aria-hidden>▤</span> Foldlab
        </h1>
        <span className="muted small">context compaction workbench · runs in your browser</span>
        <span className="spacer" />
        <button type="button" className="header-button" onClick={() => setSettingsOpen(true)} data-testid="settings.open" title="Settings > Models">
          Summarizer: {summarizerLabel}
        </button>
        <CounterSelect />
      </header>
      {settingsOpen && (
        <Suspense fallback={null}>
          <ModelsDialog onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
      <JobsBar />
      <SchemaBanner />
      <OfflineNotice />
      <LibraryBoundary>
      <ResumeOffer />
      <div className="layout">
        <aside className="sidebar">
          <ImportControls />
          <NewLiveSessionButton />
          <ImportNotice />
          <ConversationList />
        </aside>
        <main className="main">
          {selectedId ? <ConversationView conversationId={selectedId} /> : <EmptyState />}
        </main>
      </div>
      </LibraryBoundary>
    </div>
  );
}

/** The running jobs with their progress: its own component, so a job's progress redraws only the bars, not the app. */
function JobsBar() {
  const jobs = useAppStore((state) => state.jobs);
  return (
    <div className="jobs">
      {Object.values(jobs).map((job) => (
        <ProgressBar key={job.id} job={job} onCancel={() => cancelJob(job.id)} />
      ))}
    </div>
  );
}

function EmptyState() {
  return (
    <div className="empty" data-testid="empty">
      <h2>Open a transcript</h2>
      <p>
        Import a Claude Code, Codex or pi session (JSONL), or OpenAI / Anthropic messages (JSON), or open one of the examples. Everything stays in this
        browser.
      </p>
    </div>
  );
}
