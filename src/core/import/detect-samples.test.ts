// Detection from content over every JSONL sample shipped: each is read as the format of its folder,
// so a format added later cannot claim another's files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectJsonlFormat, isUndecidedOpening } from './detect.ts';

const ROOT = 'public/samples';

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonlFiles(path);
    return name.endsWith('.jsonl') ? [path] : [];
  });
}

describe('JSONL detection over the samples', () => {
  const files = jsonlFiles(ROOT).filter((path) => !path.startsWith(join(ROOT, 'live')));
  it('finds the samples', () => expect(files.length).toBeGreaterThan(5));
  for (const path of files) {
    const folder = path.slice(ROOT.length + 1).split('/')[0];
    it(`reads every line that names a format of ${path} as ${folder}`, () => {
      const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line.trim());
      // The first line decides (the second after a wire metadata line two agents write alike); no
      // other line of the file may look like another format's first line.
      const opening = lines.find((line) => !isUndecidedOpening(JSON.parse(line)))!;
      expect(detectJsonlFormat(JSON.parse(opening) as Record<string, unknown>)).toBe(folder);
      for (const line of lines) {
        if (isUndecidedOpening(JSON.parse(line))) continue;
        const format = detectJsonlFormat(JSON.parse(line) as Record<string, unknown>);
        if (format !== undefined) expect(format, line.slice(0, 120)).toBe(folder);
      }
    });
  }
});
