/** The live sessions' worker: serves the LiveHost (live-host.ts) over Comlink. */
import * as Comlink from 'comlink';
import { LiveHost } from './live-host.ts';

Comlink.expose(new LiveHost());

// Test-only hook (src/ui/test-api.ts crashLiveWorker): an uncaught error, exactly what a real crash raises on the page.
self.addEventListener('message', (event: MessageEvent<unknown>) => {
  if ((event.data as { foldlabTest?: unknown } | null)?.foldlabTest !== 'crash') return;
  setTimeout(() => {
    throw new Error('crash requested by the test API');
  });
});
