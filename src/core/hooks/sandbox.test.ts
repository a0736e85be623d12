import { describe, expect, it } from 'vitest';
import { SANDBOX_GLOBALS } from './sandbox.ts';

describe('SANDBOX_GLOBALS', () => {
  it('keeps no network, storage, host or code-from-strings global on the list', () => {
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches', 'navigator', 'Worker', 'SharedWorker', 'WebTransport', 'FontFace', 'fonts', 'Blob', 'self', 'postMessage', 'process', 'require', 'Buffer', 'eval', 'Function', 'WebAssembly']) {
      expect(SANDBOX_GLOBALS.has(name), name).toBe(false);
    }
  });
});
