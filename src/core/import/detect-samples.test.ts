// Detection from content over every sample shipped (JSONL lines and JSON documents): each is read as the format of its folder,
// so a format added later cannot claim another's files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDocumentFormat, detectJsonlFormat, isUndecidedOpening } from './detect.ts';

const ROOT = 'public/samples';

function jsonlFiles(dir: string, ending = '.jsonl'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonlFiles(path, ending);
    return name.endsWith(ending) ? [path] : [];
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

/** Files read with a session, never as one: a task's panel messages, Droid's settings, Kimi's state and subagent meta. */
const SIDECAR = /(^|\/)(ui_messages|state|meta)\.json$|\.settings\.json$/;

describe('JSON document detection over the samples', () => {
  // The live demo's script and folder are no transcripts; an opencode storage folder's files are read as a folder.
  const files = jsonlFiles(ROOT, '.json').filter((path) => !path.startsWith(join(ROOT, 'live')) && !path.startsWith(join(ROOT, 'opencode', 'storage')));
  it('finds the samples', () => expect(files.filter((path) => !SIDECAR.test(path)).length).toBeGreaterThanOrEqual(6));
  for (const path of files) {
    const folder = path.slice(ROOT.length + 1).split('/')[0];
    const sidecar = SIDECAR.test(path);
    it(sidecar ? `never reads ${path}, a file read beside a session, as a transcript` : `reads ${path} as ${folder}`, () => {
      expect(detectDocumentFormat(JSON.parse(readFileSync(path, 'utf8')) as unknown)).toBe(sidecar ? undefined : folder);
    });
  }
});
