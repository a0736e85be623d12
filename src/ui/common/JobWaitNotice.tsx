/**
 * What a job is waiting for, counted down: "rate limited — retrying in 12 s" while a model request
 * waits for the server's retry-after, "waiting for the network" while a request that failed offline
 * waits to be sent again (the bar's Cancel stops it), and "offline" while the browser has no network.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { JobWait } from '../../worker/engine/protocol.ts';

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
  if (wait?.reason === 'network') {
    return (
      <span className="job-wait" data-testid="job.network-wait" role="status">
        {online ? 'back online — sending the request again' : 'offline — waiting for the network: the request is sent again once you are back online'}
      </span>
    );
  }
  if (!online) {
    return (
      <span className="job-wait" data-testid="job.offline" role="status">
        offline — a model request waits for the network, then is sent again
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
