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

describe('planning a Copilot CLI session folder', () => {
  it('reads workspace.yaml with the events.jsonl beside it', () => {
    const plan = planImport([picked('s1/workspace.yaml'), picked('s1/events.jsonl'), picked('s2/events.jsonl')]);
    expect(plan.transcripts.map(({ file, workspace }) => [file.name, workspace?.name])).toEqual([['events.jsonl', 'workspace.yaml'], ['events.jsonl', undefined]]);
    expect(plan.skipped).toEqual([]);
  });
});
