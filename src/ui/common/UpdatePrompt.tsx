/**
 * Registers the service worker (vite-plugin-pwa, prompt mode) and shows UpdateBanner when a new
 * version is waiting. The new worker takes over only when the user presses Reload, which stays
 * disabled while a job runs; the page also checks for a new version every hour while online.
 */
/// <reference types="vite-plugin-pwa/react" />
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useShallow } from 'zustand/react/shallow';
import { runningJobLabels } from '../../store/running-jobs.ts';
import { useAppStore } from '../../store/store.ts';
import { UpdateBanner } from './UpdateBanner.tsx';

/** How often an open page asks the server for a new version, in ms. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export function UpdatePrompt() {
  const running = useAppStore(useShallow(runningJobLabels));
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine && !registration.installing) void registration.update();
      }, UPDATE_CHECK_INTERVAL_MS);
    },
  });
  if (!needRefresh) return null;
  return (
    <UpdateBanner
      running={running}
      onReload={() => {
        // Checked again at the click: a job may have started since the last render.
        if (runningJobLabels(useAppStore.getState()).length > 0) return;
        // The library reloads only for an update it found itself; one found by the hourly check
        // counts as "external" and would take control without a reload. Reload on the takeover.
        navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
        void updateServiceWorker(true);
      }}
      onDismiss={() => setNeedRefresh(false)}
    />
  );
}
