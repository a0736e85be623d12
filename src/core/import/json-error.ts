/**
 * Finds where a JSON document stops being valid, for the error message of a broken file: V8's
 * JSON.parse messages often name no position. A linear scan with an explicit stack (no recursion,
 * so deeply nested input cannot overflow).
 */

export interface JsonErrorLocation {
  /** 1-based line and column of the first offending character. */
  line: number;
  column: number;
  /** What the scanner expected there. */
  expected: string;
}

const WS = new Set([0x20, 0x0a, 0x0d, 0x09]);

/** The location of the first syntax error, or undefined if the text is valid JSON. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let i = 0;
  const n = text.length;
  // Each frame: '[' or '{' plus the state within it.
  const stack: Array<{ kind: '[' | '{'; state: 'first' | 'value' | 'key' | 'colon' | 'comma' }> = [];
  const fail = (expected: string): JsonErrorLocation => locate(text, i, expected);
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const scanString = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c === 0x5c) i += 2;
      else if (c < 0x20) return false;
      else i++;
    }
    return false;
  };
  const scanScalar = (): boolean => {
    const rest = text.slice(i, i + 5);
    for (const word of ['true', 'false', 'null']) {
      if (rest.startsWith(word)) {
        i += word.length;
        return true;
      }
    }
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0].length === 0) return false;
    i += match[0].length;
    return true;
  };
  // Parses one value start; returns false on error. Containers push a frame.
  const value = (): boolean => {
    skipWs();
    const c = text[i];
    if (c === '{') {
      i++;
      stack.push({ kind: '{', state: 'first' });
      return true;
    }
    if (c === '[') {
      i++;
      stack.push({ kind: '[', state: 'first' });
      return true;
    }
    if (c === '"') return scanString();
    return scanScalar();
  };

  if (!value()) return fail('a JSON value');
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    skipWs();
    const c = text[i];
    if (frame.kind === '[') {
      if ((frame.state === 'first' || frame.state === 'comma') && c === ']' && frame.state === 'first') {
        i++;
        stack.pop();
        continue;
      }
      if (frame.state === 'first' || frame.state === 'comma') {
        frame.state = 'value';
        if (!value()) return fail('a value in the array');
        continue;
      }
      if (c === ',') {
        i++;
        frame.state = 'comma';
        continue;
      }
      if (c === ']') {
        i++;
        stack.pop();
        continue;
      }
      return fail('"," or "]" after an array element');
    }
    // object
    if (frame.state === 'first' && c === '}') {
      i++;
      stack.pop();
      continue;
    }
    if (frame.state === 'first' || frame.state === 'comma') {
      if (c !== '"' || !scanString()) return fail('a property name in double quotes');
      frame.state = 'colon';
      continue;
    }
    if (frame.state === 'colon') {
      if (c !== ':') return fail('":" after a property name');
      i++;
      frame.state = 'value';
      if (!value()) return fail('a property value');
      frame.state = 'key';
      continue;
    }
    if (c === ',') {
      i++;
      frame.state = 'comma';
      continue;
    }
    if (c === '}') {
      i++;
      stack.pop();
      continue;
    }
    return fail('"," or "}" after a property');
  }
  skipWs();
  if (i < n) return fail('the end of the document');
  return undefined;
}

function locate(text: string, offset: number, expected: string): JsonErrorLocation {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let k = 0; k < end; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: end - lineStart + 1, expected: offset >= text.length ? `${expected} (the file ends early)` : expected };
}
