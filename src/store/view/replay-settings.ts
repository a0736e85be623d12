/**
 * The settings a replay is run with and the figures it answers, for the page: each strategy's
 * options and their parsing (with the error that names a bad one), where a replay starts, the
 * sentence saying what was sent, and retention over probe outcomes. The CLI reads the same
 * functions from the core, so both give the same numbers.
 */
export { configOptionSpecs, configTitle, parseConfigOptions, REPLAYABLE_IDS } from '../../core/replay/config-options.ts';
export { OptionError } from '../../core/compaction/options.ts';
export { DEFAULT_REPLAY_FROM, REPLAY_FROM, type ReplayFrom } from '../../core/compaction/input-scope.ts';
export { sentSentence } from '../../core/replay/session-prefix.ts';
export { retention } from '../../core/replay/retention.ts';
