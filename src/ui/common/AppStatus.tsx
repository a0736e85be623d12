/**
 * The corner of the page that reports a new version waiting (the offline notice is a strip under
 * the header, OfflineNotice.tsx).
 * The service worker is registered (UpdatePrompt) once the page has settled (page-settled.ts), so
 * that storing the app for offline use does not compete with the first screen.
 */
import { useEffect, useState } from 'react';
import { runningJobLabels } from '../../store/running-jobs.ts';
import { useAppStore } from '../../store/store.ts';
import { whenPageSettles } from './page-settled.ts';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import './app-status.css';

export function AppStatus() {
  const settled = usePageSettled();
  return (
    <aside className="app-status" aria-label="App status">
      {settled && <UpdatePrompt />}
    </aside>
  );
}

/** False until the page has settled after it opened (no job for a quiet spell, then an idle moment). */
function usePageSettled(): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(
    () =>
      whenPageSettles(
        { busy: () => runningJobLabels(useAppStore.getState()).length > 0, subscribe: (changed) => useAppStore.subscribe(changed) },
        () => setSettled(true),
      ),
    [],
  );
  return settled;
}
