/**
 * JSON text of a parsed value, as JSON.stringify writes it, for values of any depth: a value too
 * deep for JSON.stringify's recursion is written by an explicit stack instead, so a tool input is
 * shown and counted as its real JSON, never as `[object Object]`.
 */

/** JSON.stringify(value) for plain JSON data (objects, arrays, strings, numbers, booleans, null). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    if (!(error instanceof RangeError)) return String(value);
    return iterativeJson(value);
  }
}

/** An object or array being written: its items, the next one, how many were written, its closing bracket. */
type Frame = { items: Array<[string | undefined, unknown]>; at: number; written: number; close: string };

/** What JSON.stringify writes for a scalar, or undefined when it leaves it out. */
function scalar(value: unknown): string | undefined {
  return JSON.stringify(value) as string | undefined;
}

function frameOf(value: object): Frame {
  if (Array.isArray(value)) return { items: value.map((item) => [undefined, item] as [undefined, unknown]), at: 0, written: 0, close: ']' };
  return { items: Object.entries(value), at: 0, written: 0, close: '}' };
}

/** The same text as JSON.stringify, without recursion (objects' properties in their own order). */
export function iterativeJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return scalar(value) ?? '';
  const out: string[] = [Array.isArray(value) ? '[' : '{'];
  const stack: Frame[] = [frameOf(value)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.at >= frame.items.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, item] = frame.items[frame.at]!;
    frame.at++;
    const isObject = item !== null && typeof item === 'object';
    const text = isObject ? undefined : scalar(item);
    if (key !== undefined && !isObject && text === undefined) continue; // undefined / functions: left out of objects
    if (frame.written++ > 0) out.push(',');
    if (key !== undefined) out.push(`${JSON.stringify(key)}:`);
    if (isObject) {
      out.push(Array.isArray(item) ? '[' : '{');
      stack.push(frameOf(item));
    } else {
      out.push(text ?? 'null');
    }
  }
  return out.join('');
}
