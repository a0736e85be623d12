/**
 * Splits a byte stream into lines and decodes each one strictly as UTF-8, without ever holding more
 * than one partial line: chunks can end anywhere (mid-line, mid-CRLF, mid-character), and the same
 * input gives the same lines however it is chunked. A line that is not UTF-8, or longer than the
 * cap, is handed back refused (with its number) instead of being decoded; an over-long line's
 * bytes are dropped as they arrive, so it never becomes a string.
 */

export interface Line {
  /** 1-based line number in the file. */
  no: number;
  /** The decoded line without its line ending ('' for a refused line). */
  text: string;
  /** False only for a last line that had no terminating newline. */
  terminated: boolean;
  /** Bytes in the line, without its line ending. */
  bytes: number;
  /** Why the line was not decoded: over the cap, or not UTF-8 (`offset`: 0-based byte of the first bad sequence). */
  refused?: { reason: 'too-long' } | { reason: 'encoding'; offset: number };
}

const LF = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private over = false;
  private lineNo = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  /** @param maxLineBytes lines longer than this are refused; can be changed between pushes. */
  constructor(public maxLineBytes: number = Number.POSITIVE_INFINITY) {}

  /** Feeds a chunk; returns the lines it completed. */
  push(chunk: Uint8Array): Line[] {
    const out: Line[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) break;
      if (this.partBytes === 0 && !this.over) {
        // The whole line is in this chunk: decode it in place.
        out.push(this.line(chunk.subarray(start, nl), nl - start, true));
      } else {
        this.append(chunk, start, nl);
        out.push(this.take(true));
      }
      start = nl + 1;
    }
    this.append(chunk, start, chunk.length);
    return out;
  }

  /** Ends the stream; returns the unterminated last line, if any. */
  end(): Line[] {
    if (this.partBytes === 0) return [];
    return [this.take(false)];
  }

  private append(chunk: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    this.partBytes += end - start;
    if (this.over) return;
    if (this.partBytes > this.maxLineBytes) {
      this.over = true;
      this.parts = [];
      return;
    }
    this.parts.push(chunk.slice(start, end));
  }

  private take(terminated: boolean): Line {
    const bytes = this.partBytes;
    let joined: Uint8Array;
    if (this.over) joined = new Uint8Array(0);
    else if (this.parts.length === 1) joined = this.parts[0]!;
    else {
      joined = new Uint8Array(bytes);
      let at = 0;
      for (const part of this.parts) {
        joined.set(part, at);
        at += part.length;
      }
    }
    const over = this.over;
    this.parts = [];
    this.partBytes = 0;
    this.over = false;
    if (over) return { no: ++this.lineNo, text: '', terminated, bytes, refused: { reason: 'too-long' } };
    return this.line(joined, bytes, terminated);
  }

  private line(raw: Uint8Array, bytes: number, terminated: boolean): Line {
    const no = ++this.lineNo;
    if (bytes > this.maxLineBytes) return { no, text: '', terminated, bytes, refused: { reason: 'too-long' } };
    let view = raw;
    if (view.length > 0 && view[view.length - 1] === CR) view = view.subarray(0, view.length - 1);
    // A byte-order mark is only one at the very start of the file.
    if (no === 1 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) view = view.subarray(3);
    try {
      return { no, text: this.decoder.decode(view), terminated, bytes };
    } catch {
      return { no, text: '', terminated, bytes, refused: { reason: 'encoding', offset: firstInvalidUtf8(view) + (view.byteOffset - raw.byteOffset) } };
    }
  }
}

/** Offset of the first byte that does not start a valid UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
