/**
 * A tool call's input as a person reads it: each field on its own line, a string with line breaks
 * shown with real line breaks (a command, a file's new content, a patch) instead of JSON's `\n`;
 * other values as compact JSON. A string input is shown as it is.
 */

/** Spaces before each line of a multi-line field. */
const INDENT = '  ';

export function toolInputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return JSON.stringify(input, null, 2) ?? String(input);
  const lines: string[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value === 'string' && value.includes('\n')) {
      lines.push(`${key}:`, ...value.replace(/\n$/, '').split('\n').map((line) => `${INDENT}${line}`));
    } else if (typeof value === 'string') {
      lines.push(`${key}: ${value}`);
    } else {
      lines.push(`${key}: ${JSON.stringify(value) ?? String(value)}`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : '{}';
}
