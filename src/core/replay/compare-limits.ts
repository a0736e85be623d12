/**
 * How many configurations one compare holds, on its own with no imports: the store's compare slice
 * reads it at start-up, and taking it from config-options.ts would pull every strategy into the
 * first screen.
 */

/** Configurations in one compare: two to eight (one in a plain replay). */
export const MAX_COMPARE_CONFIGS = 8;
