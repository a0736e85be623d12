/**
 * Draws the app icons into public/icons/ as PNG files: the favicon's design (a dark rounded square
 * with three narrowing bars, the folds) at the sizes the web app manifest and iOS ask for, plus a
 * maskable variant whose bars sit inside the safe zone. Run `npm run icons` after changing the design.
 * Rasterized here with 4x4 supersampling and encoded with node:zlib, so no image library is needed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type RGB = readonly [number, number, number];
const BACKGROUND: RGB = [0x1f, 0x29, 0x37];
const BAR: RGB = [0x60, 0xa5, 0xfa];
/** The favicon's bars in its 32-unit grid: x, y, width, height. */
const BARS = [[6, 8, 20, 3], [9, 14, 14, 3], [12, 20, 8, 3]] as const;
const SAMPLES = 4;

export interface IconSpec {
  file: string;
  size: number;
  /** Full-bleed background and the design scaled into the central 80 % (the maskable safe zone). */
  maskable: boolean;
}

export const ICONS: readonly IconSpec[] = [
  { file: 'icon-64.png', size: 64, maskable: false },
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

/** Coverage of one point of the 32-unit design: 'bar', 'background' or undefined (transparent corner). */
function paintAt(x: number, y: number, maskable: boolean): RGB | undefined {
  const u = maskable ? 16 + (x - 16) / 0.8 : x;
  const v = maskable ? 16 + (y - 16) / 0.8 : y;
  for (const [bx, by, bw, bh] of BARS) if (u >= bx && u < bx + bw && v >= by && v < by + bh) return BAR;
  if (maskable) return BACKGROUND;
  const r = 6;
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r ? BACKGROUND : undefined;
}

/** RGBA pixels of one icon. */
export function drawIcon({ size, maskable }: IconSpec): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = paintAt(((px + (sx + 0.5) / SAMPLES) * 32) / size, ((py + (sy + 0.5) / SAMPLES) * 32) / size, maskable);
          if (!colour) continue;
          r += colour[0]; g += colour[1]; b += colour[2]; a++;
        }
      }
      const at = (py * size + px) * 4;
      if (a > 0) pixels.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / (SAMPLES * SAMPLES))], at);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** An 8-bit RGBA PNG of `size` x `size` pixels. */
export function encodePng(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(rows, y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', new Uint8Array()),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = new URL('../public/icons/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  for (const icon of ICONS) {
    const png = encodePng(icon.size, drawIcon(icon));
    writeFileSync(new URL(icon.file, dir), png);
    console.log(`public/icons/${icon.file}: ${icon.size}x${icon.size}, ${png.length} bytes`);
  }
}
