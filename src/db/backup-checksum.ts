/**
 * The backup's checksum: the file's lines (header and rows, not the end marker) are cut into
 * sections of SECTION_LINES lines and each section's SHA-256 goes into the end marker, with a short
 * hash of each of its lines (32-bit FNV-1a of the line's UTF-8 bytes, 8 hex digits a line, about
 * 1 % of a typical row). A reader hashes the lines it reads the same way: a section whose SHA-256
 * differs is refused, and its line hashes name the first line that differs (a backup written
 * before they existed names the section's first and last line). The SHA-256 decides, the short
 * hashes only locate. The hash is an integrity check, not a signature: anyone can write a backup
 * with matching checksums.
 */

/** SHA-256 of some bytes. Web Crypto, present in the page and in Node (the CLI), is the default. */
export type Digest = (bytes: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>;

export const webDigest: Digest = (bytes) => crypto.subtle.digest('SHA-256', bytes);

/** Lines per checksum section. */
export const SECTION_LINES = 256;

export interface BackupChecksum {
  algorithm: 'SHA-256';
  /** Lines per section (the last may hold fewer). */
  section: number;
  /** Lines covered: the header and every row line. */
  lines: number;
  /** Each section's hash, lowercase hex. */
  sections: string[];
  /** Per section, each line's 32-bit FNV-1a as 8 lowercase hex digits, concatenated; absent in older backups. */
  lineHashes?: string[];
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Hashes lines as they are written or read, one section at a time. */
export class SectionHasher {
  private pending: string[] = [];
  private readonly hashes: Array<Promise<string>> = [];
  private readonly lineHashes: string[] = [];
  private count = 0;
  private readonly encoder = new TextEncoder();

  constructor(private readonly digest: Digest = webDigest, readonly section = SECTION_LINES) {}

  /** One line, without its line break. */
  add(line: string): void {
    this.pending.push(line);
    this.count++;
    if (this.pending.length >= this.section) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const bytes = this.encoder.encode(`${this.pending.join('\n')}\n`);
    this.pending = [];
    this.lineHashes.push(lineHashes(bytes));
    this.hashes.push(this.digest(bytes).then(hex));
  }

  /** The checksum of every line added so far (ends the last section). */
  async checksum(): Promise<BackupChecksum> {
    this.flush();
    return { algorithm: 'SHA-256', section: this.section, lines: this.count, sections: await Promise.all(this.hashes), lineHashes: [...this.lineHashes] };
  }
}

/** Each line's 32-bit FNV-1a (of a section's bytes, every line ended by \n) as 8 hex digits, concatenated. */
export function lineHashes(bytes: Uint8Array): string {
  let out = '';
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    if (byte === 0x0a) {
      out += (hash >>> 0).toString(16).padStart(8, '0');
      hash = 0x811c9dc5;
    } else {
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
  }
  return out;
}

/** The index of the first line whose short hash differs between two sections' lists, if one does. */
function firstDifferentLine(declared: unknown, read: string | undefined): number | undefined {
  if (typeof declared !== 'string' || read === undefined) return undefined;
  const lines = Math.max(declared.length, read.length) / 8;
  for (let i = 0; i < lines; i++) {
    if (declared.slice(i * 8, i * 8 + 8) !== read.slice(i * 8, i * 8 + 8)) return i;
  }
  return undefined;
}

/** What a checksum comparison found wrong: the first differing section's lines, or why it is unusable. */
export interface ChecksumMismatch {
  from: number;
  to: number;
  problem: string;
}

/**
 * Compares the checksum the end marker declares with the one of the lines read; undefined when
 * they agree. Line numbers are 1-based, as in the file.
 */
export function checksumMismatch(declared: unknown, read: BackupChecksum): ChecksumMismatch | undefined {
  const d = declared as Partial<BackupChecksum> | null;
  const lastLine = read.lines;
  if (!d || typeof d !== 'object' || d.algorithm !== 'SHA-256' || d.section !== read.section || typeof d.lines !== 'number' || !Array.isArray(d.sections)) {
    return { from: 1, to: lastLine, problem: `the end marker's checksum is not one this Foldlab reads (expected SHA-256 over sections of ${read.section} lines).` };
  }
  const sections = Math.max(d.sections.length, read.sections.length);
  for (let i = 0; i < sections; i++) {
    if (d.sections[i] === read.sections[i]) continue;
    const from = i * read.section + 1;
    const to = Math.min((i + 1) * read.section, lastLine);
    if (i >= read.sections.length) return { from: lastLine, to: lastLine, problem: `lines are missing: the checksum covers ${d.lines} lines, the file holds ${lastLine} before its end marker.` };
    const line = firstDifferentLine(Array.isArray(d.lineHashes) ? d.lineHashes[i] : undefined, read.lineHashes?.[i]);
    if (line !== undefined) {
      const at = from + line;
      if (at > lastLine) return { from: lastLine, to: lastLine, problem: `lines are missing: the checksum covers ${d.lines} lines, the file holds ${lastLine} before its end marker.` };
      return { from: at, to: at, problem: `line ${at} differs from what the backup's checksum says it held (a changed, added or removed line; every line before it matches).` };
    }
    return { from, to, problem: `lines ${from}–${to} differ from what the backup's checksum says they held (a changed, added or removed line in that range).` };
  }
  if (d.lines !== lastLine) return { from: lastLine, to: lastLine, problem: `the checksum covers ${d.lines} lines, the file holds ${lastLine} before its end marker.` };
  return undefined;
}
