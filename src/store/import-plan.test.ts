import { describe, expect, it } from 'vitest';
import { planImport } from './import-files.ts';

const picked = (path: string) => ({ file: new File(['{}'], path.split('/').pop()!), path });

describe('planning a folder import', () => {
  it('reads a Factory Droid session with the settings file beside it, never the settings as a transcript', () => {
    const plan = planImport([picked('proj/a.settings.json'), picked('proj/a.jsonl'), picked('proj/b.jsonl'), picked('other/b.settings.json')]);
    expect(plan.transcripts.map(({ file, settings }) => [file.name, settings?.name])).toEqual([['a.jsonl', 'a.settings.json'], ['b.jsonl', undefined]]);
    expect(plan.skipped).toEqual([]);
  });
});
