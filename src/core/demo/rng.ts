/**
 * The demo generator's seeded randomness (mulberry32), id alphabets, and the string helpers it
 * needs for hashing and measuring its output.
 */

export const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export class Rng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed so that neighbouring seeds start far apart.
    let s = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
    this.state = (s ^ (s >>> 16)) >>> 0;
  }

  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight from `[value, weight]` pairs. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let x = this.next() * total;
    for (const [value, w] of items) {
      x -= w;
      if (x < 0) return value;
    }
    return (items[items.length - 1] as readonly [T, number])[0];
  }

  /** `n` distinct items, in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = items.slice();
    const out: T[] = [];
    while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0] as T);
    return out;
  }

  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.u32() % alphabet.length];
    return s;
  }

  uuid(): string {
    const hex = (n: number): string => n.toString(16).padStart(8, '0');
    const a = hex(this.u32());
    const b = hex(this.u32());
    const c = hex(this.u32());
    const d = hex(this.u32());
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${'89ab'[this.u32() & 3]}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`;
  }

  hex(n: number): string {
    return this.chars('0123456789abcdef', n);
  }
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const NON_ASCII_RUN = /[\u0080-\uffff]+/g;

/** UTF-8 byte length; only runs of non-ASCII characters are walked (a regex finds them fast). */
export function utf8Length(s: string): number {
  let n = s.length;
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(s); m !== null; m = NON_ASCII_RUN.exec(s)) {
    const run = m[0];
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      // 2 bytes below U+0800; a surrogate pair is 4 bytes for 2 units; the rest of the BMP is 3.
      n += c < 0x800 ? 1 : c >= 0xd800 && c <= 0xdfff ? 1 : 2;
    }
  }
  return n;
}

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
