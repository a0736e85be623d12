/**
 * FNV-1a (64-bit, in two 32-bit halves) over UTF-8: one fast content hash for the whole core. The
 * source hash of a folded block (a summary made once for a range of entries is found again for the
 * same entries, F12), a compaction's provenance, the judge cache's keys.
 */

const encoder = new TextEncoder();
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;

/** The running state of an FNV-1a 64 hash: high and low 32-bit halves. */
export interface FnvState {
  hi: number;
  lo: number;
}

export function fnvStart(): FnvState {
  return { hi: OFFSET_HI, lo: OFFSET_LO };
}

/** Feeds a string's UTF-8 bytes into the hash (FNV-1a is a stream: feeding a + b equals feeding a then b). */
export function fnvFeed(state: FnvState, text: string): FnvState {
  const bytes = encoder.encode(text);
  let { hi, lo } = state;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]!) >>> 0;
    // Multiply by the prime 2^40 + 0x1b3: the 2^40 part lands in the high half as lo << 8.
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x1_0000_0000);
    hi = (hi * 0x1b3 + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = loMul >>> 0;
  }
  return { hi, lo };
}

export function fnvHex(state: FnvState): string {
  return state.hi.toString(16).padStart(8, '0') + state.lo.toString(16).padStart(8, '0');
}

/** FNV-1a 64 of a string's UTF-8 bytes, as 16 hex digits. */
export function fnv1a64(text: string): string {
  return fnvHex(fnvFeed(fnvStart(), text));
}
