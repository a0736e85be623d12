/**
 * The app itself, loaded by the entry (main.tsx) once the page shows its shell: installs the test
 * API, then renders the app and its status corner (offline, updates) in place of the shell.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { AppStatus } from './ui/common/AppStatus.tsx';
import { installTestApi } from './ui/test-api.ts';

/** Renders the app into `root`, replacing the shell index.html painted there. */
export function mountApp(root: HTMLElement): void {
  installTestApi();
  createRoot(root).render(
    <StrictMode>
      <App />
      <AppStatus />
    </StrictMode>,
  );
}
