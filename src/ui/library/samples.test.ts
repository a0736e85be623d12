// The page's one-click examples: each file is shipped under public/ and is detected from its content
// as the format it is listed with.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importText } from '../../core/import/run.ts';
import { SAMPLES } from './samples.ts';

describe('the one-click examples', () => {
  for (const sample of SAMPLES) {
    it(`${sample.id}: ${sample.path} is shipped and read as ${sample.format}`, () => {
      const path = `public/${sample.path}`;
      expect(existsSync(path)).toBe(true);
      expect(importText(readFileSync(path), { fileName: sample.path.split('/').pop()! }).format).toBe(sample.format);
    });
  }
});
