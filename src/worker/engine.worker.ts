/** The app's one engine worker: serves the Engine over Comlink. */
import * as Comlink from 'comlink';
import { db } from '../db/db.ts';
import { browserCountPool } from './count-pool-browser.ts';
import { Engine } from './engine.ts';

Comlink.expose(new Engine(db, { countPool: browserCountPool() }));

// Test-only hook (src/ui/test-api.ts crashEngine): an uncaught error, exactly what a real crash raises on the page.
self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data as { foldlabTest?: unknown } | null;
  if (data?.foldlabTest === 'crash') {
    setTimeout(() => {
      throw new Error('crash requested by the test API');
    });
  }
});
