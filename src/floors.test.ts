/**
 * Imports point down the floors and never back up (docs: CONVENTIONS, "Dependencies point inward"):
 * `ui` imports `store` and `ui` (and types from anywhere); `store` imports the worker clients, `db`,
 * `llm` and `core` (worker protocol types too), never `ui`; `worker` never imports `ui`; `db`
 * imports `core` only; `core` nothing outside it. Read from the source with the TypeScript parser,
 * type-only imports told apart. Files still to move onto their floor are listed in
 * src/floors-pending.json (also read by eslint.config.js): that list may only shrink, so a new
 * arrow back up fails here, and a file that was moved must leave the list.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname);
const PENDING = JSON.parse(readFileSync(join(SRC, 'floors-pending.json'), 'utf8')) as Record<string, string[]>;

/** Test code and its helpers may reach across floors (a test drives a worker job and reads its view). */
const isTestCode = (file: string) => /\.test\.tsx?$|(^|\/)test-[^/]*\.tsx?$|(^|\/)testing[^/]*\.ts$/.test(file);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export interface Arrow {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The relative imports of one file (static, re-exports, dynamic), src-relative, type-only ones marked. */
export function arrowsOf(file: string, text: string): Arrow[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const arrows: Arrow[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    arrows.push({ from: file, to: join(dirname(file), specifier.replace(/\?.*$/, '')), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return arrows;
}

const floorOf = (file: string) => file.split('/')[0]!;

/** Why `arrow` (src-relative paths) runs the wrong way, or undefined when it may exist. */
export function wrongWay(arrow: Arrow): string | undefined {
  const from = floorOf(arrow.from);
  const to = floorOf(arrow.to);
  if (from === to || to === 'cli') return from === 'core' && to === 'cli' ? 'core imports nothing outside src/core' : undefined;
  if (from === 'core') return 'core imports nothing outside src/core';
  if (from === 'db' && to !== 'core') return 'db imports core only';
  if (from === 'worker' && to === 'ui') return 'worker never imports ui';
  if (from === 'llm' && (to === 'ui' || to === 'store' || to === 'worker')) return 'llm imports core (and db types) only';
  if (from === 'store' && to === 'ui') return 'store never imports ui';
  if (from === 'store' && to === 'worker' && !arrow.typeOnly && !/(^|\/|-)client\.ts$/.test(arrow.to)) return 'store reaches a worker through its client only';
  if (from === 'ui' && to !== 'store' && !arrow.typeOnly) return 'ui imports store and ui only (types from anywhere)';
  return undefined;
}

function wrongArrows(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path).split('\\').join('/');
    if (isTestCode(file) || !file.includes('/')) continue;
    for (const arrow of arrowsOf(file, readFileSync(path, 'utf8'))) {
      const why = wrongWay(arrow);
      if (why) byFile.set(file, [...(byFile.get(file) ?? []), `${arrow.to} (${why})`]);
    }
  }
  return byFile;
}

describe('floors of src/', () => {
  it('reads type-only imports apart from value imports', () => {
    const arrows = arrowsOf('ui/a.tsx', "import type { A } from '../core/a.ts';\nimport { type B } from '../db/b.ts';\nimport { c, type D } from '../worker/c.ts';\nexport { e } from '../llm/e.ts';\nconst f = () => import('../core/f.ts');\ntype G = import('../db/g.ts').G;");
    expect(arrows.map((arrow) => [arrow.to, arrow.typeOnly])).toEqual([
      ['core/a.ts', true], ['db/b.ts', true], ['worker/c.ts', false], ['llm/e.ts', false], ['core/f.ts', false], ['db/g.ts', true],
    ]);
  });

  it('tells the arrows that run back up from the ones that may exist', () => {
    const arrow = (from: string, to: string, typeOnly = false) => wrongWay({ from, to, typeOnly });
    expect(arrow('db/jobs.ts', 'worker/engine/protocol.ts', true)).toBe('db imports core only');
    expect(arrow('worker/live/live-host.ts', 'ui/live/x.ts', true)).toBe('worker never imports ui');
    expect(arrow('store/a.ts', 'ui/b.ts', true)).toBe('store never imports ui');
    expect(arrow('store/a.ts', 'worker/engine/engine.ts')).toBe('store reaches a worker through its client only');
    expect(arrow('ui/a.tsx', 'db/db.ts')).toBe('ui imports store and ui only (types from anywhere)');
    expect(arrow('core/a.ts', 'db/b.ts', true)).toBe('core imports nothing outside src/core');
    for (const [from, to, typeOnly] of [['store/a.ts', 'worker/client.ts', false], ['store/a.ts', 'worker/engine/protocol.ts', true], ['ui/a.tsx', 'core/b.ts', true], ['ui/a.tsx', 'store/b.ts', false], ['db/a.ts', 'core/b.ts', false], ['worker/a.ts', 'db/b.ts', false]] as const) {
      expect(arrow(from, to, typeOnly)).toBeUndefined();
    }
  });

  it('has no arrow back up outside the files still to move, and every listed file still has one', () => {
    const wrong = wrongArrows();
    const pending = new Set(Object.values(PENDING).flat());
    const unlisted = [...wrong].filter(([file]) => !pending.has(file)).map(([file, arrows]) => `${file} -> ${arrows.join(', ')}`);
    expect(unlisted, `Imports that run the wrong way (move the call into a store action, the type into its floor):\n${unlisted.join('\n')}`).toEqual([]);
    const moved = [...pending].filter((file) => !wrong.has(file));
    expect(moved, 'These files import only their own floor now: take them off src/floors-pending.json').toEqual([]);
    console.info(`Files still to move onto their floor: ${Object.entries(PENDING).map(([floor, files]) => `${floor} ${files.length}`).join(', ')}`);
  });
});
