/**
 * What the Fold tab asks the engine worker: fold a branch (with its progress), simulate folding a
 * range, cancel either. Components call these, never the worker.
 */
import type { JobProgress } from '../worker/engine/protocol.ts';
import type { FoldRequest, FoldSimulateRequest } from '../worker/fold/fold-protocol.ts';
import { engine, newJobId, proxy } from '../worker/client.ts';

/** A job id for a fold or a simulation, to cancel it. */
export const foldJobId = (kind: 'fold' | 'simulate') => newJobId(kind);

export function fold(request: FoldRequest, onProgress: (progress: JobProgress) => void) {
  return engine().fold(request, proxy(onProgress));
}

export function simulateFold(request: FoldSimulateRequest, onProgress: (progress: JobProgress) => void) {
  return engine().simulateFold(request, proxy(onProgress));
}

export function cancelFoldJob(jobId: string): void {
  void engine().cancel(jobId);
}
