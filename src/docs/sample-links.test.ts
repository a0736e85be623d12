// The documents point at samples that exist: every `public/samples/...` link or path in README.md
// and docs/*.md resolves; README's import list and docs/features.md link a sample of every agent
// format (and each of its forms); public/samples/NOTICE.md gives the provenance of every file
// shipped there; README's `inspect --format` list names every format.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_IDS } from '../core/import/types.ts';

const SAMPLES = 'public/samples';
const DOCS = ['README.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The sample paths a document names, resolved from the project root: Markdown link targets and code spans. */
function samplePaths(doc: string): string[] {
  const text = readFileSync(doc, 'utf8');
  const links = [...text.matchAll(/\]\(([^)\s#]+)/g)].map((match) => normalize(join(dirname(doc), match[1]!)));
  const spans = [...text.matchAll(/`(public\/samples\/[^`\s#]*)`/g)].map((match) => normalize(match[1]!));
  return [...links, ...spans].filter((path) => path.startsWith(`${SAMPLES}/`)).map((path) => path.replace(/\/$/, ''));
}

/** Every file under `dir`, relative to SAMPLES. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(SAMPLES, path)];
  });
}

/** One sample of each agent format and of each of its forms (a file, a folder, a store). */
const AGENT_SAMPLES = [
  'openhands/basic_gui_mode.json',
  'gemini-cli/jsonl_v040.jsonl',
  'gemini-cli/pomodoro-timer.json',
  'copilot-cli/049410b4-c1df-44ee-87a5-caa1c349091e/events.jsonl',
  'cursor/test-session.jsonl',
  'cursor/state.vscdb',
  'cursor/workspace/state.vscdb',
  'opencode/storage',
  'opencode/opencode.db',
  'opencode/sandbox-agent-messages.json',
  'droid/b6a1f0d2-3c4e-4f8a-9d21-7e5c0a9b3f14.jsonl',
  'droid/exec-rc-claude.jsonl',
  'kimi/7f3a9c2e-5b1d-4e8f-a6c4-2d9e0b7f1a35/wire.jsonl',
  'kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b',
  'kimi-code/session_4e1b7c2a-9d3f-4a86-b5e0-7c21f8d3a94b',
  'cline/1764201600000',
];

describe('sample links in the documents', () => {
  for (const doc of DOCS) {
    it(`every sample ${doc} names exists`, () => {
      for (const path of samplePaths(doc)) expect(existsSync(path), `${doc}: ${path}`).toBe(true);
    });
  }

  for (const doc of ['README.md', 'docs/features.md']) {
    it(`${doc} links a sample of every agent format's forms`, () => {
      const linked = new Set(samplePaths(doc));
      const missing = AGENT_SAMPLES.filter((sample) => !linked.has(`${SAMPLES}/${sample}`));
      expect(missing).toEqual([]);
    });
  }

  it('finds the links (the reader is not blind)', () => {
    expect(samplePaths('README.md').length).toBeGreaterThan(AGENT_SAMPLES.length);
    expect(samplePaths('docs/formats.md')).toContain(`${SAMPLES}/openhands/basic_gui_mode.json`);
  });
});

describe('public/samples/NOTICE.md', () => {
  const notice = readFileSync(`${SAMPLES}/NOTICE.md`, 'utf8');
  const named = [...notice.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

  it('gives the provenance of every sample file, by its path or its folder', () => {
    const files = filesUnder(SAMPLES).filter((path) => path !== 'NOTICE.md');
    const unnamed = files.filter((file) => !named.some((name) => name === file || (name.endsWith('/') && file.startsWith(name))));
    expect(unnamed).toEqual([]);
  });

  it('names no file that is not there', () => {
    const paths = named.filter((name) => /^[a-z-]+\/[^\s…*]+$/.test(name) && existsSync(join(SAMPLES, name.split('/')[0]!)));
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(existsSync(join(SAMPLES, path)), path).toBe(true);
  });
});

it("README's inspect usage lists every format --format takes", () => {
  const readme = readFileSync('README.md', 'utf8');
  const list = /inspect <file\|folder> \[--format ([a-z|-]+)\]/.exec(readme)?.[1]?.split('|');
  expect(list?.slice().sort()).toEqual(FORMAT_IDS.slice().sort());
});
