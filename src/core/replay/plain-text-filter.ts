/**
 * A cheap test that an ASCII context entry cannot carry a probe, so the checker never normalizes
 * it for that probe. Normalizing ASCII only lowercases it and turns other characters into single
 * spaces, so every space-free piece of a needle that the normalized text holds is also in the
 * lowercased text. Each entry keeps a bitset of the three-character runs of its lowercased text;
 * a piece with a run the bitset lacks is absent (no false "absent": the same hash marks and tests),
 * and a piece that passes is confirmed with a plain substring search.
 */
import type { Probe } from '../probes/types.ts';

/** The lowercased text of an ASCII entry and the bitset of its three-character runs. */
export interface PlainText {
  text: string;
  bits: Uint32Array;
  /** 32 - log2(bits in the set): a run's hash keeps its top bits. */
  shift: number;
}

/** A needle piece and the hashes of its three-character runs. */
interface Piece {
  text: string;
  grams: Uint32Array;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** Multiplicative hash of the run at `i` (all 32 bits; a set keeps its top ones). */
function gram(text: string, i: number): number {
  const key = (text.charCodeAt(i) << 16) ^ (text.charCodeAt(i + 1) << 8) ^ text.charCodeAt(i + 2);
  return Math.imul(key, 0x9e3779b1) >>> 0;
}

/** The entry's plain form, or null when it is not ASCII (normalization may then change more than case). */
export function plainText(text: string): PlainText | null {
  if (NON_ASCII.test(text)) return null;
  const lowered = text.toLowerCase();
  // About four bits per character: a set at most a quarter full.
  let log = 8;
  while (1 << log < lowered.length * 4 && log < 24) log++;
  const bits = new Uint32Array(1 << (log - 5));
  const shift = 32 - log;
  for (let i = 0; i + 3 <= lowered.length; i++) {
    const h = gram(lowered, i) >>> shift;
    bits[h >>> 5]! |= 1 << (h & 31);
  }
  return { text: lowered, bits, shift };
}

const piecesOf = new WeakMap<Probe, Piece[][]>();

/** Each alternative of a probe as its space-free pieces. */
function probePieces(probe: Probe): Piece[][] {
  let pieces = piecesOf.get(probe);
  if (!pieces) {
    pieces = probe.needles.filter((alternative) => alternative.length > 0).map((alternative) => alternative.flatMap((needle) => needle.split(' ').filter((piece) => piece.length > 0).map((piece) => {
      const grams = new Uint32Array(Math.max(0, piece.length - 2));
      for (let i = 0; i + 3 <= piece.length; i++) grams[i] = gram(piece, i);
      return { text: piece, grams };
    })));
    piecesOf.set(probe, pieces);
  }
  return pieces;
}

function holds(plain: PlainText, piece: Piece): boolean {
  for (const g of piece.grams) {
    const h = g >>> plain.shift;
    if ((plain.bits[h >>> 5]! & (1 << (h & 31))) === 0) return false;
  }
  return plain.text.includes(piece.text);
}

/** False when no alternative of the probe can match the entry; true when one may. */
export function mayCarry(probe: Probe, plain: PlainText): boolean {
  return probePieces(probe).some((pieces) => pieces.every((piece) => holds(plain, piece)));
}
