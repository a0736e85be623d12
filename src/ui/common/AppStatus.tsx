/** The corner of the page that reports the app's own state: offline, and a new version waiting. */
import { OfflineNotice } from './OfflineNotice.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import './app-status.css';

export function AppStatus() {
  return (
    <aside className="app-status" aria-label="App status">
      <OfflineNotice />
      <UpdatePrompt />
    </aside>
  );
}
