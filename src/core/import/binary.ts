/**
 * Whether the first bytes of a file are binary rather than a transcript's text: the one test the
 * import (page and `inspect`) and `eval`'s file listing share, so a file is refused by both or by
 * neither, with the same reason.
 */

/** How many leading bytes are examined. */
export const SNIFF_BYTES = 8192;

/**
 * Why `bytes` (the start of a file, up to SNIFF_BYTES) cannot be a transcript, or undefined when
 * they may be one: a NUL byte, or more than 10 % control bytes (other than tab, newlines, escape).
 */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const end = Math.min(bytes.byteLength, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === 0) return 'it contains NUL bytes';
    if (byte < 8 || (byte > 13 && byte < 32 && byte !== 27)) control++;
  }
  if (end > 64 && control / end > 0.1) return `${control} control bytes in the first ${end}`;
  return undefined;
}

/** The refusal both the import and `eval` give, with `name` for the file. */
export function binaryMessage(name: string, reason: string): string {
  return `${name} looks like a binary file (${reason}); expected a JSON or JSONL transcript.`;
}
