// The import bench (`npm run bench`, section 2) measures every agent format: each line format has a
// sample streamed at 200 MB (bench/import-agents.ts), each JSON-document format one imported whole
// at 100 MB (bench/import-documents.ts), and a document repeated with fresh ids imports every copy.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_SAMPLES } from '../../../bench/import-agents.ts';
import { DOCUMENT_SAMPLES, repeatedDocument } from '../../../bench/import-documents.ts';
import { importText } from './run.ts';

/** The agents' line formats and document formats (Claude Code, Codex and pi have the generated 100 MB session). */
const LINE_FORMATS = ['gemini-cli', 'cursor', 'copilot-cli', 'droid', 'kimi'];
const DOCUMENT_FORMATS = ['openhands', 'gemini-cli', 'opencode', 'cline'];

describe('the import bench samples', () => {
  it('cover every agent line format, each sample read as its format', () => {
    const read = AGENT_SAMPLES.map((sample) => importText(readFileSync(sample.path), { fileName: sample.path.split('/').pop()! }).format);
    expect(read).toEqual(expect.arrayContaining(LINE_FORMATS));
  });

  it('cover every agent document format', () => {
    for (const sample of DOCUMENT_SAMPLES) expect(existsSync(sample.path), sample.path).toBe(true);
    const read = DOCUMENT_SAMPLES.map((sample) => importText(readFileSync(sample.path, 'utf8'), { fileName: sample.path.split('/').pop()! }).format);
    expect(read).toEqual(expect.arrayContaining(DOCUMENT_FORMATS));
  });

  for (const sample of DOCUMENT_SAMPLES) {
    it(`repeats ${sample.format} with fresh ids: three copies make three times the entries, no issue`, () => {
      const text = readFileSync(sample.path, 'utf8');
      const name = sample.path.split('/').pop()!;
      const one = importText(text, { fileName: name });
      const three = importText(repeatedDocument(text, sample.list, 3), { fileName: name });
      expect(three.format).toBe(one.format);
      expect(three.issues).toEqual([]);
      expect(three.entries).toHaveLength(one.entries.length * 3);
      expect(new Set(three.entries.map((entry) => entry.id)).size).toBe(three.entries.length);
    });
  }
});
