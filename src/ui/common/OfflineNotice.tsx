/**
 * Says when the app is offline: it keeps working from its cache (import, count, compact, fold,
 * compare with the offline summarizer); remote models, model downloads and new samples wait for
 * the network. navigator.onLine alone misses some cases (it stays true on a network with no route
 * out, and after a reload served by the service worker), so a small request to the site confirms.
 */
import { useEffect, useState } from 'react';
import './app-status.css';

/** Asks the site for a tiny file past every cache: any answer means the network is up. */
export async function siteReachable(fetchImpl: typeof fetch = fetch, base: string = import.meta.env.BASE_URL): Promise<boolean> {
  try {
    await fetchImpl(`${base}manifest.webmanifest?online-check=${Date.now()}`, { cache: 'no-store', method: 'HEAD' });
    return true;
  } catch {
    return false;
  }
}

/** Online as far as the browser knows and the site answers; rechecked on every online / offline event. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    let check = 0;
    const update = () => {
      const current = ++check;
      if (!navigator.onLine) {
        setOnline(false);
        return;
      }
      void siteReachable().then((reachable) => {
        if (current === check) setOnline(reachable);
      });
    };
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      check++;
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * A strip under the header, in the page's flow (it takes room instead of covering what is under
 * it), with a close button; closed, it stays closed until the app goes offline again.
 */
export function OfflineNotice() {
  const online = useOnline();
  const [closed, setClosed] = useState(false);
  const [wasOnline, setWasOnline] = useState(online);
  if (online !== wasOnline) {
    // Back online: the next time the app is offline, the notice shows again.
    setWasOnline(online);
    if (online) setClosed(false);
  }
  if (online || closed) return null;
  return (
    <div className="offline-banner" role="status" data-testid="app.offline">
      <p>
        <strong>Offline.</strong> Foldlab works from its cache: import, count, compact, fold and compare with the offline summarizer.
        Remote models and model downloads need the network.
      </p>
      <button type="button" className="link" onClick={() => setClosed(true)} aria-label="Close the offline notice" data-testid="app.offline.close">Close</button>
    </div>
  );
}
