// The template renderers: fixed headings per seed, length fitting that drops the least important
// lines and never a file list, the memory block's line/char caps, memory compression, and that
// every format reads back (parseSummary) without losing requests, constraints, files or errors.
import { describe, expect, it } from 'vitest';
import { type Digest, emptyDigest } from './digest.ts';
import { parseSummary } from './parse-summary.ts';
import { augmentSummaryParts, compressMemories, fit, layeredArchivedParts, memoryBlock, memoryLines, MEMORY_MARKER, piSummaryParts, piTurnPrefixParts, renderTemplateText, templateFor } from './formats.ts';

function sample(): Digest {
  const digest = emptyDigest();
  digest.requests = ['Add OAuth login', 'Also write tests for `auth.ts`', 'Status: please check the build'];
  digest.constraints = ['Never commit secrets.', '必须使用 TypeScript。'];
  digest.done = ['Add OAuth login - answered'];
  digest.inProgress = ['Also write tests for `auth.ts`'];
  digest.nextSteps = ['Finish the tests'];
  digest.decisions = ["I'll use JWT because sessions do not scale."];
  digest.commands = ['npm test', 'echo `date`'];
  digest.context = ['Last user request: Status: please check the build'];
  digest.errors = [
    { tool: 'Bash', target: 'npm run lint', message: 'lint failed', resolved: false },
    { tool: 'Edit', target: 'src/a.ts', message: 'Found 2 matches', resolved: true },
  ];
  digest.files.set('src/a.ts', { read: false, modified: true, created: false, deleted: false, edits: 3 });
  digest.files.set('src/new.ts', { read: false, modified: true, created: true, deleted: false, edits: 0 });
  digest.files.set('src/old.ts', { read: false, modified: true, created: false, deleted: true, edits: 0 });
  digest.files.set('README.md', { read: true, modified: false, created: false, deleted: false, edits: 0 });
  digest.stack = ['TypeScript', 'npm'];
  digest.environment = ['Linux (paths under /home)'];
  digest.timeRange = { start: '2025-01-01T00:00:00.000Z', end: '2025-01-01T01:00:00.000Z' };
  return digest;
}

const TEMPLATES = ['pi-summary', 'augment-summary', 'layered-archived-summary'] as const;

describe('fixed structure', () => {
  it('pi summary has pi sections in order and the file blocks', () => {
    const text = fit(piSummaryParts(sample()));
    const headings = text.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual(['## Goal', '## Constraints & Preferences', '## Progress', '### Done', '### In Progress', '### Blocked', '## Key Decisions', '## Next Steps', '## Critical Context']);
    expect(text).toContain('<read-files>\nREADME.md\n</read-files>');
    expect(text).toContain('<modified-files>\nsrc/a.ts\nsrc/new.ts\nsrc/old.ts\n</modified-files>');
    expect(text).toContain('1. Finish the tests');
    expect(text).toContain('- Bash `npm run lint` failed, still failing: lint failed');
  });

  it('pi turn prefix has its three sections', () => {
    const text = fit(piTurnPrefixParts(sample()));
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual(['## Original Request', '## Early Progress', '## Context for Suffix']);
    expect(text).toContain('## Original Request\nAdd OAuth login');
  });

  it('augment summary follows the seed (Conversation Summary, four sections)', () => {
    const text = fit(augmentSummaryParts(sample()));
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual(['# Conversation Summary', '## User Requirements', '## Agent Actions', '## Key Decisions', '## Pending Tasks']);
    expect(text).toContain('- Constraint: Never commit secrets.');
    expect(text).toContain('- I modified `src/a.ts` (3 edits)');
    expect(text).toContain('- I created `src/new.ts`');
    expect(text).toContain('- I deleted `src/old.ts`');
    expect(text).toContain('- I viewed `README.md`');
  });

  it('layered summary reproduces the Archived Session Summary headings and emoji exactly', () => {
    const lines = fit(layeredArchivedParts(sample())).split('\n');
    const fixed = lines.filter((line) => line.startsWith('#') || line.startsWith('*('));
    expect(fixed).toEqual([
      '## 📌 Archived Session Summary',
      '*(Contains context from 2025-01-01T00:00:00.000Z to 2025-01-01T01:00:00.000Z)*',
      '### 🎯 Objectives & Status',
      '### 🏗️ Technical Context (Static)',
      '### ✅ Completed Milestones (The "Done" Pile)',
      '### 🧠 Key Insights & Decisions (Persistent Memory)',
      '### 📂 File System State (Snapshot)',
      '*(Modified files in this archive segment)*',
    ]);
    expect(lines).toContain('* **Original Goal**: Add OAuth login');
    expect(lines).toContain('* **Stack**: TypeScript, npm');
    expect(lines).toContain('* [✓] Add OAuth login - answered');
    expect(lines).toContain('* **User Preferences**: Never commit secrets.');
    expect(lines).toContain('* `src/a.ts`: 3 edits.');
    expect(lines).toContain('* `src/new.ts`: Created.');
  });

  it('layered summary of nothing still has every fixed line', () => {
    const text = fit(layeredArchivedParts(emptyDigest()));
    expect(text).toContain('*(Contains context from (unknown) to (unknown))*');
    expect(text).toContain('* **Original Goal**: _(unknown)_');
    expect(text).toContain('* (no files modified)');
  });

  it('maps prompt ids to templates, unknown ids to pi', () => {
    expect(templateFor('pi-update-summary')).toBe('pi-summary');
    expect(templateFor('something-new')).toBe('pi-summary');
    expect(templateFor('layered-archived-summary')).toBe('layered-archived-summary');
  });
});

describe('fit', () => {
  it('drops the lowest-priority lines first, renumbers, notes the omission and keeps fixed lines', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((letter) => letter.repeat(100));
    const parts = [
      { fixed: 'HEAD' },
      { items: [{ text: a!, priority: 1 }, { text: b!, priority: 9 }, { text: c!, priority: 2 }], numbered: true },
      { items: [{ text: 'file', priority: Number.POSITIVE_INFINITY }] },
    ];
    expect(fit(parts)).toBe(`HEAD\n1. ${a}\n2. ${b}\n3. ${c}\nfile`);
    expect(fit(parts, 290)).toBe(`HEAD\n1. ${b}\n2. ${c}\n- … 1 more omitted to fit the length limit\nfile`);
    expect(fit(parts, 250)).toBe(`HEAD\n1. ${b}\n- … 2 more omitted to fit the length limit\nfile`);
    expect(fit(parts, 1)).toBe('HEAD\n- … 3 more omitted to fit the length limit\nfile');
  });

  it('prints the empty placeholder for an empty group', () => {
    expect(fit([{ fixed: '## A' }, { items: [], empty: '(none)' }])).toBe('## A\n(none)');
  });
});

describe('read-back', () => {
  for (const template of TEMPLATES) {
    it(`${template} reads back with requests, constraints, files, errors`, () => {
      const text = renderTemplateText(template, sample());
      const back = parseSummary(text);
      expect(back.requests).toEqual(sample().requests);
      expect(back.constraints).toEqual(sample().constraints);
      const changed = [...back.files.entries()].filter(([, state]) => state.modified).map(([path]) => path).sort();
      expect(changed).toEqual(['src/a.ts', 'src/new.ts', 'src/old.ts']);
      expect(back.files.get('src/a.ts')?.edits).toBe(3);
      expect(back.errors.map((error) => [error.tool, error.target, error.resolved])).toEqual(expect.arrayContaining([['Bash', 'npm run lint', false], ['Edit', 'src/a.ts', true]]));
      expect(back.decisions).toEqual(sample().decisions);
      // Augment's template has no time range.
      if (template !== 'augment-summary') expect(back.timeRange).toEqual(sample().timeRange);
      // A second round trip is stable.
      expect(renderTemplateText(template, back)).toBe(renderTemplateText(template, parseSummary(renderTemplateText(template, back))));
    });
  }

  it('pi read-back keeps commands (even with backticks), state and labelled context', () => {
    const back = parseSummary(renderTemplateText('pi-summary', sample()));
    expect(back.commands).toEqual(['npm test', 'echo `date`']);
    expect(back.inProgress).toEqual(sample().inProgress);
    expect(back.nextSteps).toEqual(sample().nextSteps);
    expect(back.context).toContain('Last user request: Status: please check the build');
    expect(back.stack).toEqual(['TypeScript', 'npm']);
    expect(back.files.get('README.md')?.read).toBe(true);
  });

  it('memory block reads back', () => {
    const back = parseSummary(memoryBlock(sample()));
    expect(back.requests).toEqual(sample().requests);
    expect(back.constraints).toEqual(sample().constraints);
    expect([...back.files.keys()].sort()).toEqual(['README.md', 'src/a.ts', 'src/new.ts', 'src/old.ts']);
  });

  it('reads a model-written summary loosely without failing', () => {
    const back = parseSummary('<summary>\n# Conversation Summary\n\n## User Requirements\n- Build X\n\n## Agent Actions\n- Created auth/ directory\n\n## Pending Tasks\n- Write unit tests\n</summary>');
    expect(back.requests).toEqual(['Build X']);
    expect(back.done).toEqual(['Created auth/ directory']);
    expect(back.nextSteps).toEqual(['Write unit tests']);
  });
});

describe('memory block', () => {
  it('starts with the marker and respects max lines and max chars', () => {
    const full = memoryBlock(sample());
    expect(full.split('\n')[0]).toBe(MEMORY_MARKER);
    const few = memoryBlock(sample(), 3);
    expect(few.split('\n')).toHaveLength(4);
    expect(few).toContain('- constraint: Never commit secrets.');
    expect(few).toContain('- request: Status: please check the build');
    for (const max of [20, 60, 150, 400]) expect(memoryBlock(sample(), undefined, max).length).toBeLessThanOrEqual(max);
  });
});

describe('memory compression', () => {
  it('dedupes and drops lines contained in others', () => {
    expect(memoryLines('- User likes tea\n- user likes tea.\n\n* User likes tea and cake\n- Deadline Friday')).toEqual(['User likes tea and cake', 'Deadline Friday']);
  });

  it('merges similar lines down to the target, keeping order of first mention', () => {
    const memories = [
      '- User prefers TypeScript over JavaScript',
      '- Project uses React with Vite',
      '- User asked about authentication 3 times',
      '- User timezone is UTC+8',
      '- Project has test coverage requirement of 80%',
      '- Project deadline is next Friday',
      '- User prefers TypeScript strict mode',
      '- Authentication questions keep coming back',
    ].join('\n');
    const out = compressMemories(memories, 4);
    expect(out).toEqual([
      'User prefers TypeScript over JavaScript, strict mode',
      'Project uses React with Vite, test coverage requirement of 80%, deadline is next Friday',
      'User asked about authentication 3 times, Authentication questions keep coming back',
      'User timezone is UTC+8',
    ]);
    // Merged lines say each word once, and no content word is lost.
    const kept = new Set(out.join(' ').toLowerCase().split(/\s+/));
    for (const word of ['javascript', 'strict', 'vite', '80%', 'friday', 'authentication', 'coming', 'utc+8']) expect(kept.has(word) || kept.has(`${word},`)).toBe(true);
    expect(out.join('\n')).not.toContain(';');
    expect(compressMemories(memories, 4)).toEqual(out);
    expect(compressMemories(memories)).toHaveLength(8);
    expect(compressMemories('a\nb\nc', 1)).toEqual(['a, b, c']);
  });

  it('drops older memories a kept recent one already says', () => {
    expect(compressMemories('- Deadline Friday\n- Uses pnpm\n- Likes tea', 5, ['Deadline Friday at noon'])).toEqual(['Uses pnpm', 'Likes tea']);
  });
});
