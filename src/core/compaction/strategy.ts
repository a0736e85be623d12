/**
 * The strategy interface: each strategy (one file in src/core/strategies/) has an id, typed options
 * with its seed's defaults, a trigger decision, a planner, and an assembler that builds the
 * context from the plan and the summaries it asked for. All pure.
 */
import type { Entry } from '../journal/entry.ts';
import type { OptionSpec } from './options.ts';
import type { CompactedContext, CompactionInput, Plan, StrategyId, TriggerDecision } from './types.ts';

export type Options = Record<string, number | boolean | string>;

export interface Strategy<O extends Options = Options> {
  id: StrategyId;
  label: string;
  /** The seed file the strategy follows. */
  seed: string;
  /** One line for the picker. */
  description: string;
  options: readonly OptionSpec[];
  /** Raw values (UI strings, CLI k=v, Augment snake_case JSON) to typed options; throws OptionError. */
  parse(raw?: Record<string, unknown>): O;
  trigger(input: CompactionInput, options: O): TriggerDecision;
  plan(input: CompactionInput, options: O): Plan;
  /**
   * A cheap answer, before planning, for a trigger that fired with nothing to compact: the text
   * `plan(input, options).nothingToDo` would give, or undefined when only a full plan can tell.
   * A replay asks it at every call the trigger fires, so it must not walk the history. Optional.
   */
  nothingToDo?(input: CompactionInput, options: O): string | undefined;
  /** Builds the context from the plan and the summaries (task id -> text). */
  assemble(input: CompactionInput, plan: Plan, summaries: ReadonlyMap<string, string>, options: O): CompactedContext;
  /**
   * The strategy's own answer when a summary could not be made (timeout, error), e.g. the layered
   * spec's hard truncation. Absent: the failure is reported and nothing changes.
   */
  fallback?(input: CompactionInput, plan: Plan, options: O, reason: Error): CompactedContext | undefined;
  /** How entries are written into the summary prompt (default: serializeEntries; layered: ReAct, L12). */
  serialize?(entries: readonly Entry[]): string;
}
