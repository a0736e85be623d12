/**
 * The probes' judged mode from the page: ask the worker for the estimate, run the judge once the
 * user confirmed it, mirror progress, keep the result, cancel. The model is the one chosen in
 * Settings > Models; its key is read at the moment of the request and goes only into it.
 */
import { engine, newJobId, proxy } from '../worker/client.ts';
import type { JudgeRequest, JudgeResult } from '../worker/judge/judge-protocol.ts';
import { errorMessage } from './actions.ts';
import { useAppStore } from './store.ts';
import { summarizerFields } from './summarizer-request.ts';
import { isCancelled } from '../core/cancel.ts';

const store = () => useAppStore.getState();

async function request(comparisonId: string, dismissed: readonly string[], prefix: string): Promise<JudgeRequest> {
  return {
    ...(await summarizerFields()),
    jobId: newJobId(prefix),
    comparisonId,
    counter: store().counter,
    ...(dismissed.length > 0 ? { dismissedProbes: [...dismissed] } : {}),
  };
}

/** Asks the worker what judging would send and cost, and shows it for confirmation. */
export async function estimateJudge(comparisonId: string, dismissed: readonly string[]): Promise<void> {
  store().setJudgeError(undefined);
  store().setJudgeQuote({ comparisonId });
  try {
    const quote = await engine().estimateJudge(await request(comparisonId, dismissed, 'judge-estimate'));
    if (store().judgeQuote?.comparisonId === comparisonId) store().setJudgeQuote({ comparisonId, quote });
  } catch (error) {
    store().setJudgeQuote(undefined);
    store().setJudgeError({ comparisonId, message: `Cannot judge: ${errorMessage(error)}`, cancelled: false });
  }
}

export function dismissJudgeQuote(): void {
  store().setJudgeQuote(undefined);
}

/** Runs the judge (after the estimate was confirmed); resolves to the result, or undefined when it failed or was cancelled. */
export async function runJudge(comparisonId: string, dismissed: readonly string[]): Promise<JudgeResult | undefined> {
  if (store().judgeRun) {
    store().setJudgeError({ comparisonId, message: 'A judge run is already going: wait for it or cancel it first.', cancelled: false });
    return undefined;
  }
  const judgeRequest = await request(comparisonId, dismissed, 'judge');
  store().setJudgeQuote(undefined);
  store().setJudgeError(undefined);
  store().setJudgeRun({ jobId: judgeRequest.jobId, comparisonId, startedAt: Date.now() });
  try {
    const result = await engine().judge(judgeRequest, proxy((progress) => store().setJudgeProgress(progress)));
    store().setJudgeResult(result);
    return result;
  } catch (error) {
    const cancelled = isCancelled(error);
    store().setJudgeError({
      comparisonId,
      message: cancelled ? 'Judging cancelled: nothing was stored; earlier grades are unchanged.' : `Judging failed, nothing was stored: ${errorMessage(error)}`,
      cancelled,
    });
    return undefined;
  } finally {
    if (store().judgeRun?.jobId === judgeRequest.jobId) store().setJudgeRun(undefined);
  }
}

export function cancelJudge(): void {
  const run = store().judgeRun;
  if (run) void engine().cancel(run.jobId);
}
