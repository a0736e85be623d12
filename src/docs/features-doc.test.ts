// docs/features.md tells the truth about what is built: every row id of the specification appears
// there, either in the table with the test files that prove it (each one exists) or under "Not
// built yet" with what is missing; no row is in both, and no id is made up.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_IDS } from './feature-ids.ts';

const DOC = readFileSync('docs/features.md', 'utf8');

interface Row { ids: string[]; provedBy: string }

/** The checklist's table rows (`| ids | capability | where | proved by |`), the header and rule left out. */
function tableRows(doc: string): Row[] {
  const rows: Row[] = [];
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| id ') || line.startsWith('|---')) continue;
    const cells = line.split(' | ');
    const ids = cells[0]!.slice(2).split(',').map((id) => id.trim()).filter((id) => id !== '—');
    rows.push({ ids, provedBy: cells[cells.length - 1]!.replace(/\s*\|$/, '') });
  }
  return rows;
}

/** The ids listed under "## Not built yet" (`- **X12** …`). */
function notBuilt(doc: string): string[] {
  const section = doc.split(/^## Not built yet$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^- \*\*([A-Z]\d+)\*\*/gm)].map((match) => match[1]!);
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory()) return item.name === 'node_modules' || item.name.startsWith('.') ? [] : files(path);
    return [path];
  });
}
const TEST_FILES = [...files('src'), ...files('e2e')].filter((path) => /\.(?:test|spec)\.ts$/.test(path));

/** The test files a proved-by cell names (a full path, a path's tail, or a `*` pattern), and whether each exists. */
function namedTests(cell: string): Array<{ name: string; found: boolean }> {
  return [...cell.matchAll(/`([^`\s]*\.(?:test|spec)\.ts)`/g)].map((match) => {
    const name = match[1]!;
    if (existsSync(name)) return { name, found: true };
    const pattern = new RegExp(`(?:^|/)${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return { name, found: TEST_FILES.some((path) => pattern.test(path)) };
  });
}

describe('docs/features.md', () => {
  const rows = tableRows(DOC);
  const listed = new Set(rows.flatMap((row) => row.ids));
  const missing = notBuilt(DOC);

  it('has every specification row, as built or as not built yet, never both', () => {
    for (const id of FEATURE_IDS) expect(listed.has(id) || missing.includes(id), id).toBe(true);
    for (const id of missing) expect(listed.has(id), `${id} is listed as built and as not built`).toBe(false);
  });

  it('names no id the specification does not have', () => {
    for (const id of [...listed, ...missing]) expect(FEATURE_IDS, id).toContain(id);
  });

  it('every built row names a test file that proves it, and every test file it names exists', () => {
    for (const row of rows.filter((r) => r.ids.length > 0)) {
      const named = namedTests(row.provedBy);
      expect(named.length, `${row.ids.join(', ')}: no test file named`).toBeGreaterThan(0);
      for (const test of named) expect(test.found, `${row.ids.join(', ')}: ${test.name} does not exist`).toBe(true);
    }
  });

  it('the checks catch a missing row, a row without a test and a test that does not exist', () => {
    expect(tableRows('| id | a | b | c |\n|---|---|---|---|\n| A1, A2 | x | `y.ts` | `src/nope.test.ts` |')).toEqual([{ ids: ['A1', 'A2'], provedBy: '`src/nope.test.ts`' }]);
    expect(namedTests('`src/nope.test.ts`, `augment.test.ts`, `src/worker/count-pool/*.test.ts`')).toEqual([
      { name: 'src/nope.test.ts', found: false }, { name: 'augment.test.ts', found: true }, { name: 'src/worker/count-pool/*.test.ts', found: true },
    ]);
    expect(namedTests('`npm run test:e2e`')).toEqual([]);
    expect(notBuilt('## Not built yet\n\n- **X12** a\n- **X13** b\n\n## Other\n- **X1** c')).toEqual(['X12', 'X13']);
  });
});
