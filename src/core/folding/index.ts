/** Memory folding L0-L4 (seed 003): the public surface of src/core/folding. */
export type * from './types.ts';
export { toIterations, iterationOfEntry } from './iterations.ts';
export { fnv1a64 } from '../hash.ts';
export { digestEntries, levelText, storageRef } from './digest.ts';
export { distance, foldEvery, importance, importanceFactors, levelFor, type ImportanceFactors } from './importance.ts';
export { PHASE_END, type IterationInfo } from './moments.ts';
export { DEFAULT_FOLD_OPTIONS, FOLD_OPTIONS, parseFoldOptions, type FoldOptions } from './options.ts';
export { queryHistory, searchBlocks, unfold, UnfoldError, type QueryHit } from './recall.ts';
export { createFoldSession, foldRun, FoldInputError, pushIterations } from './run.ts';
export { FoldSession, FoldSessionError } from './session.ts';
export { toTimelineData } from './timeline.ts';
export {
  blockRequest, FOLD_PROMPTS, modelDigest, ModelReplyError, parseJsonReply, parseModelReply, parseSelfCheck, SELF_CHECK_PROMPT, selfCheckRequest, withMissing,
  type BlockSource, type ModelFields, type ModelLevel, type SelfCheck,
} from './model-digest.ts';
export {
  DEFAULT_MODEL_TIMEOUT_MS, enrichRun, foldSummariesCancelled, modelCacheKey, modelLevelText,
  type EnrichOptions, type EnrichResult, type ModelDigestCache, type ModelDigestEntry,
} from './model-enrich.ts';
export { FoldSimulateError, parseRange, simulateFold, type FoldSimulation, type SimulateOptions } from './simulate.ts';
