/**
 * Retention probes (feature X7): facts a later model call may need, read from the journal on their
 * own (never through src/core/summarize or src/core/folding), and the matcher that checks whether
 * a context still carries them.
 */
export { extractProbes } from './extract.ts';
export { matchProbe, prepareContext, SPAN_CHARS, type NormalizedContext } from './match.ts';
export { normalizeForMatch } from './normalize.ts';
export { PROBE_CATEGORIES, type Probe, type ProbeCategory, type ProbeMatch } from './types.ts';
