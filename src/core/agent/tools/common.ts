/**
 * What every folder tool shares: its environment (folder, caps, `.gitignore`, the mtime tracker),
 * reading its JSON input with errors that name the field and what was expected, and turning any
 * failure into a `ToolOutcome` the model can read instead of an exception in the loop.
 */
import type { MtimeTracker } from '../mtime.ts';
import type { AgentTool, AgentToolSpec, ToolContext, ToolOutcome } from '../types.ts';
import type { FolderToolLimits } from './limits.ts';
import { FolderPathError, type PathScope } from './paths.ts';

export interface ToolEnv extends PathScope {
  limits: FolderToolLimits;
  mtimes: MtimeTracker;
}

/** The model's input does not fit the tool's schema. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/** The user stopped the turn while the tool ran. */
export class ToolStoppedError extends Error {
  override name = 'ToolStoppedError';
  constructor() {
    super('Stopped by the user before the tool finished.');
  }
}

export function throwIfStopped(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolStoppedError();
}

export function success(text: string, path?: string): ToolOutcome {
  return path === undefined ? { ok: true, text } : { ok: true, text, path };
}

export function failure(reason: string, path?: string): ToolOutcome {
  const outcome: ToolOutcome = { ok: false, text: `Error: ${reason}`, error: reason };
  if (path !== undefined) outcome.path = path;
  return outcome;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Reads the fields of one tool's input object. */
export class ToolInput {
  private readonly record: Record<string, unknown>;

  constructor(private readonly tool: string, input: unknown) {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new ToolInputError(`${tool}: expected a JSON object of arguments, got ${describe(input)}.`);
    }
    this.record = input as Record<string, unknown>;
  }

  string(key: string, required: true): string;
  string(key: string, required?: false): string | undefined;
  string(key: string, required = false): string | undefined {
    const value = this.record[key];
    if (value === undefined || value === null) {
      if (required) throw new ToolInputError(`${this.tool}: the argument "${key}" (a string) is required.`);
      return undefined;
    }
    if (typeof value !== 'string') throw new ToolInputError(`${this.tool}: "${key}" must be a string, got ${describe(value)}.`);
    if (required && value.trim() === '') throw new ToolInputError(`${this.tool}: "${key}" must not be empty.`);
    return value;
  }

  integer(key: string, min: number): number | undefined {
    const value = this.record[key];
    if (value === undefined || value === null) return undefined;
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
      throw new ToolInputError(`${this.tool}: "${key}" must be a whole number of at least ${min}, got ${describe(value)}.`);
    }
    return n;
  }

  boolean(key: string): boolean | undefined {
    const value = this.record[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw new ToolInputError(`${this.tool}: "${key}" must be true or false, got ${describe(value)}.`);
    return value;
  }
}

/** A tool whose failures (bad input, refused path, stop, folder errors) come back as outcomes. */
export function defineTool(spec: AgentToolSpec, run: (input: unknown, context: ToolContext) => Promise<ToolOutcome>): AgentTool {
  return {
    spec,
    async run(input, context) {
      try {
        throwIfStopped(context.signal);
        return await run(input, context);
      } catch (error) {
        if (error instanceof FolderPathError) return failure(error.message, error.path);
        if (error instanceof ToolInputError || error instanceof ToolStoppedError) return failure(error.message);
        const message = error instanceof Error ? error.message : String(error);
        return failure(`${spec.name} failed: ${message}`);
      }
    },
  };
}
