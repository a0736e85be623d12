// The save benchmark page: one worker, driven by bench/section-save.ts through `window.__save`.
import type { SaveRequest, SaveReply } from './worker.ts';

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

(window as unknown as { __save: (request: SaveRequest) => Promise<SaveReply> }).__save = (request) =>
  new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<SaveReply>) => resolve(event.data);
    worker.postMessage(request);
  });
