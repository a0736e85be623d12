/** Entry point of the page: mounts the app, its status corner (offline, updates) and the test API. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { AppStatus } from './ui/common/AppStatus.tsx';
import { installTestApi } from './ui/test-api.ts';
import './ui/app.css';

installTestApi();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
    <AppStatus />
  </StrictMode>,
);
