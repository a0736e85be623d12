/**
 * Typed strategy options: each option declares its name (and the seed's snake_case alias), type,
 * default, range, unit and a one-line explanation. Raw values from the UI or the CLI (strings)
 * are coerced and validated; a bad value is refused with its name and range.
 */

export interface OptionSpec {
  /** camelCase name used in code and the UI. */
  name: string;
  /** The seed's own spelling (Augment's snake_case JSON params), accepted on input. */
  alias?: string;
  type: 'integer' | 'number' | 'boolean' | 'string' | 'enum' | 'text';
  default: number | boolean | string;
  min?: number;
  max?: number;
  /** Allowed values for `enum`. */
  values?: readonly string[];
  /** Unit shown beside the value: 'tokens', 'chars', 'ms', 'messages', ... */
  unit?: string;
  /** One line: what it does, as the seed says. */
  description: string;
}

export class OptionError extends Error {
  override name = 'OptionError';
  constructor(readonly option: string, message: string) {
    super(message);
  }
}

function describeRange(spec: OptionSpec): string {
  if (spec.type === 'enum') return `one of ${spec.values?.join(', ')}`;
  if (spec.type === 'boolean') return 'true or false';
  const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
  if (spec.min !== undefined && spec.max !== undefined) return `${kind} from ${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return `${kind} >= ${spec.min}`;
  if (spec.max !== undefined) return `${kind} <= ${spec.max}`;
  return kind;
}

function coerce(spec: OptionSpec, value: unknown): number | boolean | string {
  const bad = () => new OptionError(spec.name, `Option ${spec.name} must be ${describeRange(spec)}${spec.unit ? ` (${spec.unit})` : ''}; got ${JSON.stringify(value)}.`);
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(/_/g, '')) : Number.NaN;
      if (!Number.isFinite(n) || (spec.type === 'integer' && !Number.isInteger(n))) throw bad();
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) throw bad();
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      throw bad();
    case 'enum':
      if (typeof value === 'string' && spec.values?.includes(value)) return value;
      throw bad();
    case 'string':
    case 'text':
      if (typeof value === 'string') return value;
      throw bad();
  }
}

/**
 * Options from raw input: defaults for what is missing, aliases accepted, unknown names refused
 * (a typo must not silently fall back to a default).
 */
export function parseOptions(specs: readonly OptionSpec[], raw: Record<string, unknown> = {}): Record<string, number | boolean | string> {
  const byName = new Map<string, OptionSpec>();
  for (const spec of specs) {
    byName.set(spec.name, spec);
    if (spec.alias) byName.set(spec.alias, spec);
  }
  const out: Record<string, number | boolean | string> = {};
  for (const spec of specs) out[spec.name] = spec.default;
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const spec = byName.get(key);
    if (!spec) {
      const names = specs.map((s) => s.name).join(', ');
      throw new OptionError(key, `Unknown option "${key}"; this strategy takes: ${names}.`);
    }
    out[spec.name] = coerce(spec, value);
  }
  return out;
}

/** Parses `k=v` pairs (the CLI's --option flags). */
export function parseKeyValues(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new OptionError(pair, `Expected --option key=value; got "${pair}".`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return out;
}
