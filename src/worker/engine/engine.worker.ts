/**
 * The app's engine worker: serves the Engine over Comlink. Started under the name
 * SWEEP_WORKER_NAME it is one of a sweep's workers instead (sweep/sweep-serve.ts): one bundle holds
 * the replay engine and the tokenizer loaders for both.
 */
import * as Comlink from 'comlink';
import { db } from '../../db/db.ts';
import { browserCountPool } from '../count-pool/count-pool-browser.ts';
import { Engine } from './engine.ts';
import { setWebLLMWorkerForTest } from '../../llm/webllm/webllm-client.ts';
import { serveSweep, SWEEP_WORKER_NAME } from '../sweep/sweep-serve.ts';

const scope = self as unknown as Parameters<typeof serveSweep>[0] & { name: string };

if (scope.name === SWEEP_WORKER_NAME) serveSweep(scope);
else serveEngine();

function serveEngine(): void {
  Comlink.expose(new Engine(db, { countPool: browserCountPool() }));

  // Test-only hook (src/ui/test-api.ts crashEngine): an uncaught error, exactly what a real crash raises on the page.
  self.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { foldlabTest?: unknown; url?: unknown } | null;
    // Test-only (test-api.ts fakeWebLLMWorker): a nested worker's script cannot be routed by Playwright, so the test hands a blob: URL.
    if (data?.foldlabTest === 'webllm-worker' && typeof data.url === 'string') setWebLLMWorkerForTest(data.url);
    if (data?.foldlabTest === 'crash') {
      setTimeout(() => {
        throw new Error('crash requested by the test API');
      });
    }
  });
}
