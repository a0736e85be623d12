/**
 * What a job is waiting for, counted down: "rate limited — retrying in 12 s" while a model request
 * waits for the server's retry-after, and "offline" while the browser has no network (no model
 * request is retried then).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { JobWait } from '../../worker/protocol.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function JobWaitNotice({ wait }: { wait: JobWait | undefined }) {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!wait) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [wait]);
  if (!online) {
    return (
      <span className="job-wait" data-testid="job.offline" role="status">
        offline — model requests are not retried until the network is back
      </span>
    );
  }
  if (!wait) return null;
  const seconds = Math.max(0, Math.ceil((wait.until - now) / 1000));
  return (
    <span className="job-wait" data-testid="job.wait" role="status">
      {wait.reason === 'rate-limit' ? 'rate limited' : 'server busy'} — {seconds > 0 ? `retrying in ${seconds} s` : 'retrying now'} (retry {wait.attempt})
    </span>
  );
}
