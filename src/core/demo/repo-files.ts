/**
 * The demo session's fake repository: the contents of each file, generated deterministically from
 * its path (TypeScript and Python sources and tests, Markdown in three languages, locale files, a
 * big schema, rate and invoice fixtures), and the repository state the agent edits.
 */
import { TREE, type FileSpec } from './data/repo.ts';
import { STATIC_FILES } from './data/static-files.ts';
import { TEST_TASK } from './data/tasks.ts';
import { CJK_COMMENTS, CURRENCIES, EN_SENTENCES, ERROR_CODES, FIELDS, JA_SENTENCES, LOCALE_TEXT, NOUNS, PURPOSES, VERBS, ZH_SENTENCES } from './data/words.ts';
import { cap, hashString, Rng, snake } from './rng.ts';

const TREE_BY_PATH = new Map(TREE.map((f) => [f.path, f]));

// Source code generators (deterministic per file path)

function tsStatement(r: Rng, param: string, depth: number, cjk: boolean, out: string[], indent: string): void {
  const v = r.pick(NOUNS) + cap(r.pick(['total', 'rows', 'map', 'key', 'value', 'next', 'index', 'parts']));
  const f = r.pick(FIELDS);
  const kind = r.int(0, depth > 1 ? 6 : 9);
  switch (kind) {
    case 0:
      out.push(`${indent}const ${v} = ${param}.${f} ?? ${r.pick(['0', "''", 'null', '[]', 'opts.fallback'])};`);
      break;
    case 1:
      out.push(`${indent}if (!${param}.${f}) throw new LedgerError('${r.pick(ERROR_CODES)}', \`missing ${f} on \${${param}.id}\`);`);
      break;
    case 2:
      out.push(`${indent}logger.debug('${r.pick(VERBS)} ${r.pick(NOUNS)}', { id: ${param}.id, ${f}: ${param}.${f} });`);
      break;
    case 3:
      out.push(`${indent}const ${v} = ${r.pick(VERBS)}${cap(r.pick(NOUNS))}(${param}, { ${r.pick(FIELDS)}: opts.${r.pick(FIELDS)} });`);
      break;
    case 4:
      if (cjk && r.chance(0.6)) out.push(`${indent}// ${r.pick(CJK_COMMENTS)}`);
      else out.push(`${indent}// ${cap(r.pick(VERBS))} the ${r.pick(NOUNS)} ${r.pick(PURPOSES)}.`);
      break;
    case 5:
      out.push(`${indent}const ${v} = Math.round((${param}.${f} as number) * ${r.pick(['100', 'rate', 'ratio', '(1 + taxRate)'])});`);
      break;
    case 6:
      out.push(`${indent}${r.pick(['result', 'acc', 'seen'])}.${r.pick(['push', 'add', 'set'])}(${param}.${f});`);
      break;
    case 7: {
      const item = r.pick(NOUNS);
      out.push(`${indent}for (const ${item} of ${param}.${r.pick(['lines', 'entries', 'items', 'parts'])}) {`);
      const n = r.int(1, 3);
      for (let i = 0; i < n; i++) tsStatement(r, item, depth + 1, cjk, out, `${indent}  `);
      out.push(`${indent}}`);
      break;
    }
    case 8: {
      out.push(`${indent}if (${param}.${f} ${r.pick(['===', '!==', '>', '<'])} ${r.pick(["'draft'", '0', 'undefined', 'opts.limit'])}) {`);
      const n = r.int(1, 2);
      for (let i = 0; i < n; i++) tsStatement(r, param, depth + 1, cjk, out, `${indent}  `);
      out.push(`${indent}}`);
      break;
    }
    default:
      out.push(`${indent}try {`);
      tsStatement(r, param, depth + 1, cjk, out, `${indent}  `);
      out.push(`${indent}} catch (err) {`, `${indent}  throw wrapError(err, '${r.pick(ERROR_CODES)}');`, `${indent}}`);
  }
}

function tsFunction(r: Rng, name: string, cjk: boolean, out: string[]): void {
  const noun = r.pick(NOUNS);
  const Noun = cap(noun);
  out.push('/**', ` * ${cap(name.replace(/([A-Z])/g, ' $1').toLowerCase())} ${r.pick(PURPOSES)}.`);
  if (cjk && r.chance(0.5)) out.push(` * ${r.pick(CJK_COMMENTS)}。`);
  if (r.chance(0.4)) out.push(' *', ` * @throws LedgerError \`${r.pick(ERROR_CODES)}\` when the ${noun} ${r.pick(['is closed', 'has no lines', 'uses another currency'])}.`);
  out.push(' */');
  const async = r.chance(0.3);
  out.push(`export ${async ? 'async ' : ''}function ${name}(${noun}: ${Noun}, opts: ${Noun}Options = {}): ${async ? `Promise<${Noun}>` : r.pick([Noun, 'Money', 'number', `${Noun}[]`, 'string'])} {`);
  const n = r.int(2, 7);
  for (let i = 0; i < n; i++) tsStatement(r, noun, 0, cjk, out, '  ');
  out.push(`  return ${r.pick([`{ ...${noun}, ${r.pick(FIELDS)}: opts.${r.pick(FIELDS)} }`, 'result', `${noun}.${r.pick(FIELDS)}`, 'acc'])};`, '}', '');
}

function genTs(spec: FileSpec, r: Rng): string {
  const out: string[] = [];
  const name = spec.path.split('/').pop()?.replace('.ts', '') ?? 'module';
  out.push('/**', ` * ${cap(name)}: ${r.pick(['helpers', 'service layer', 'route handlers', 'core types and guards'])} for ${r.pick(NOUNS)}s and ${r.pick(NOUNS)}s.`, ' */');
  const imports = r.sample(['money', 'dates', 'errors', 'logger', 'i18n'], r.int(2, 4));
  for (const mod of imports) {
    out.push(`import { ${mod === 'errors' ? 'LedgerError, wrapError' : mod === 'logger' ? 'logger' : `${r.pick(VERBS)}${cap(r.pick(NOUNS))}`} } from '${spec.path.startsWith('src/lib/') ? '.' : '../lib'}/${mod}.ts';`);
  }
  out.push(`import type { ${cap(r.pick(NOUNS))}, ${cap(r.pick(NOUNS))}Options, Money } from '${spec.path.startsWith('src/types') ? './db/schema.ts' : spec.path.split('/').length > 2 ? '../types.ts' : './types.ts'}';`, '');
  const ifaceCount = r.int(1, 2);
  for (let i = 0; i < ifaceCount; i++) {
    const Noun = cap(r.pick(NOUNS));
    out.push(`export interface ${Noun}${r.pick(['Options', 'Row', 'Summary', 'Input'])} {`);
    for (const f of r.sample(FIELDS, r.int(3, 7))) out.push(`  ${f}${r.chance(0.3) ? '?' : ''}: ${r.pick(['string', 'number', 'Money', 'Date', 'boolean', `${Noun}Id`])};`);
    out.push('}', '');
  }
  if (spec.cjk && r.chance(0.8)) out.push(`// ${r.pick(CJK_COMMENTS)}`, `// ${r.pick(CJK_COMMENTS)}`, '');
  for (const symbol of spec.symbols ?? []) {
    if (/^[A-Z]/.test(symbol)) {
      out.push(`export class ${symbol} extends Error {`, '  constructor(', '    readonly code: ErrorCode,', '    message: string,', '    readonly details: Record<string, unknown> = {},', '  ) {', '    super(message);', `    this.name = '${symbol}';`, '  }', '}', '');
    } else {
      tsFunction(r, symbol, spec.cjk === true, out);
    }
  }
  const extra = r.int(1, 3);
  for (let i = 0; i < extra; i++) tsFunction(r, `${r.pick(VERBS)}${cap(r.pick(NOUNS))}${i}`, spec.cjk === true, out);
  return out.join('\n');
}

function genTestTs(spec: FileSpec, r: Rng): string {
  const task = TEST_TASK.get(spec.path);
  const symbol = task?.symbol ?? 'formatMoney';
  const module = task?.files[0]?.replace(/^src\//, '../src/') ?? '../src/lib/money.ts';
  const out = [`import { describe, expect, it${r.chance(0.5) ? ', beforeEach' : ''} } from 'vitest';`, `import { ${symbol}, ${r.pick(VERBS)}${cap(r.pick(NOUNS))} } from '${module}';`, `import { money } from '../src/lib/money.ts';`, ''];
  const suites = [task?.suite ?? symbol, `${r.pick(VERBS)}${cap(r.pick(NOUNS))}`, `${r.pick(VERBS)}${cap(r.pick(NOUNS))}`];
  for (const [si, suite] of suites.entries()) {
    out.push(`describe('${suite}', () => {`);
    const cases = si === 0 && task ? task.cases : Array.from({ length: r.int(2, 5) }, () => `${r.pick(['returns', 'rejects', 'keeps', 'handles', 'rounds'])} ${r.pick(NOUNS)}s ${r.pick(PURPOSES)}`);
    for (const name of cases) {
      out.push(`  it('${name}', () => {`);
      out.push(`    const input = ${r.pick(['money(100)', "{ id: 'inv_1', amount: money(1999), currency: 'EUR' }", "'2026-01-31'", '[1, 1, 1]'])};`);
      if (r.chance(0.5)) out.push(`    const expected = ${task?.expected ?? '0'};`);
      out.push(`    expect(${symbol}(input${r.chance(0.5) ? ', [1, 1, 1]' : ''})).${r.pick(['toEqual', 'toBe', 'toStrictEqual'])}(${task?.expected ?? '0'});`, '  });', '');
    }
    out.push('});', '');
  }
  return out.join('\n');
}

function pyFunction(r: Rng, name: string, cjk: boolean, out: string[]): void {
  const noun = r.pick(NOUNS);
  out.push(`def ${name}(${noun}s: list[${cap(noun)}], *, ${r.pick(['dry_run', 'strict', 'verbose'])}: bool = False) -> ${r.pick(['int', `list[${cap(noun)}]`, 'dict[str, Decimal]', 'None'])}:`);
  out.push(`    """${cap(name.replace(/_/g, ' '))} ${r.pick(PURPOSES)}."""`);
  const n = r.int(3, 9);
  for (let i = 0; i < n; i++) {
    const f = snake(r.pick(FIELDS));
    switch (r.int(0, 6)) {
      case 0:
        out.push(`    seen: set[tuple[str, Decimal]] = set()`);
        break;
      case 1:
        out.push(`    for ${noun} in ${noun}s:`, `        if ${noun}.${f} is None:`, `            log.warning("skipping %s without ${f}", ${noun}.id)`, '            continue');
        break;
      case 2:
        out.push(`    total = sum((${noun}.amount for ${noun} in ${noun}s), start=Decimal("0"))`);
        break;
      case 3:
        out.push(cjk && r.chance(0.6) ? `    # ${r.pick(CJK_COMMENTS)}` : `    # ${cap(r.pick(VERBS))} the ${r.pick(NOUNS)}s ${r.pick(PURPOSES)}.`);
        break;
      case 4:
        out.push(`    log.info("${r.pick(VERBS)} %d ${noun}s", len(${noun}s))`);
        break;
      case 5:
        out.push(`    by_${f} = {${noun}.${f}: ${noun} for ${noun} in ${noun}s}`);
        break;
      default:
        out.push(`    if not ${noun}s:`, `        raise ValueError("no ${noun}s to ${r.pick(VERBS)}")`);
    }
  }
  out.push(`    return ${r.pick(['total', `${noun}s`, 'len(seen)', 'None', `dict(by_${snake(r.pick(FIELDS))})`])}`, '', '');
}

function genPy(spec: FileSpec, r: Rng): string {
  const out = [`"""${cap(spec.path.split('/').pop()?.replace('.py', '').replace(/_/g, ' ') ?? 'module')}: part of the ledgerly ETL scripts."""`, '', 'from __future__ import annotations', '', 'import argparse', 'import logging', 'from dataclasses import dataclass, field', 'from datetime import date, datetime', 'from decimal import Decimal', '', 'log = logging.getLogger(__name__)', '', ''];
  for (const symbol of spec.symbols ?? []) {
    if (/^[A-Z]/.test(symbol)) {
      out.push('@dataclass(frozen=True)', `class ${symbol}:`, `    """One ${snake(symbol).slice(1).replace(/_/g, ' ')} row from the bank export."""`, '');
      for (const f of r.sample(FIELDS, r.int(4, 7))) out.push(`    ${snake(f)}: ${r.pick(['str', 'Decimal', 'date', 'datetime', 'str | None'])}`);
      out.push(`    tags: list[str] = field(default_factory=list)`, '', '');
    } else {
      pyFunction(r, symbol, spec.cjk === true, out);
    }
  }
  const extra = r.int(2, 5);
  for (let i = 0; i < extra; i++) pyFunction(r, `${r.pick(VERBS)}_${r.pick(NOUNS)}s`, spec.cjk === true, out);
  if (spec.symbols?.includes('main')) {
    out.push('if __name__ == "__main__":', '    raise SystemExit(main())', '');
  }
  return out.join('\n');
}

function genTestPy(spec: FileSpec, r: Rng): string {
  const task = TEST_TASK.get(spec.path);
  const module = task?.files[0]?.split('/').pop()?.replace('.py', '') ?? 'reconcile';
  const out = ['import logging', 'from decimal import Decimal', '', 'import pytest', '', `from ${module} import ${task?.symbol ?? 'main'}`, 'from models import BankTransaction, Payment', '', ''];
  out.push('@pytest.fixture', 'def transactions():', '    return [');
  for (let i = 0; i < r.int(3, 6); i++) out.push(`        BankTransaction(txn_id="T${1000 + i}", amount=Decimal("${r.int(10, 900)}.${r.int(10, 99)}"), booked_at="2026-02-${String(r.int(1, 28)).padStart(2, '0')}"),`);
  out.push('    ]', '', '');
  for (const name of task?.cases ?? ['test_smoke']) {
    out.push(`def ${name}(transactions, caplog):`, `    result = ${task?.symbol ?? 'main'}(transactions)`, `    assert len(result) == ${task?.expected ?? '0'}`, '', '');
  }
  return out.join('\n');
}

function genMarkdown(spec: FileSpec, r: Rng): string {
  const bank = spec.kind === 'md-ja' ? JA_SENTENCES : spec.kind === 'md-zh' ? ZH_SENTENCES : EN_SENTENCES;
  const headings = spec.kind === 'md-ja' ? ['概要', '金額の扱い', '為替レート', '翻訳', 'テスト'] : spec.kind === 'md-zh' ? ['概述', '金额处理', '汇率', '翻译', '测试'] : ['Overview', 'Money', 'Exchange rates', 'Errors', 'Development'];
  const out = [`# ${spec.path === 'CHANGELOG.md' ? 'Changelog' : spec.kind === 'md' ? 'ledgerly' : 'ledgerly ドキュメント'}`, ''];
  if (spec.path === 'CHANGELOG.md') {
    for (let v = 9; v >= 1; v--) {
      out.push(`## 0.${v}.0 - 2026-0${1 + (v % 3)}-${String(r.int(1, 28)).padStart(2, '0')}`, '');
      for (let i = 0; i < r.int(2, 5); i++) out.push(`- ${r.pick(['Fixed', 'Added', 'Changed'])} ${r.pick(NOUNS)} ${r.pick(PURPOSES)} (#${r.int(40, 400)})`);
      out.push('');
    }
    return out.join('\n');
  }
  for (const h of headings) {
    out.push(`## ${h}`, '');
    for (let p = 0; p < r.int(1, 3); p++) out.push(r.sample(bank, r.int(2, 4)).join(spec.kind === 'md' ? ' ' : ''), '');
  }
  return out.join('\n');
}

function genLocale(spec: FileSpec): string {
  const errors = LOCALE_TEXT[spec.locale ?? 'en'] ?? {};
  const ui = spec.locale === 'ja' ? { title: '請求書', save: '保存', cancel: 'キャンセル', total: '合計', due: '支払期限' } : spec.locale === 'zh-CN' ? { title: '发票', save: '保存', cancel: '取消', total: '合计', due: '到期日' } : { title: 'Invoices', save: 'Save', cancel: 'Cancel', total: 'Total', due: 'Due date' };
  return JSON.stringify({ ui, errors }, null, 2);
}

/** A big generated Drizzle-style schema: 20–60 KB. */
function genSchema(r: Rng): string {
  const target = r.int(20_000, 60_000);
  const out = ['// Generated by `npm run db:generate`. Do not edit by hand.', "import { boolean, integer, jsonb, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';", ''];
  let size = 0;
  for (let t = 0; size < target; t++) {
    const table = `${r.pick(NOUNS)}${cap(r.pick(['items', 'events', 'snapshots', 'links', 'audits', 'versions']))}${t}`;
    const lines = [`export const ${table} = pgTable('${snake(table)}', {`, "  id: uuid('id').primaryKey().defaultRandom(),"];
    for (const f of r.sample(FIELDS, r.int(6, 12))) {
      lines.push(`  ${f}: ${r.pick(['text', 'integer', 'varchar', 'timestamp', 'boolean', 'jsonb'])}('${snake(f)}')${r.chance(0.6) ? '.notNull()' : ''}${r.chance(0.2) ? `.references(() => ${r.pick(NOUNS)}s.id)` : ''},`);
    }
    lines.push("  createdAt: timestamp('created_at').notNull().defaultNow(),", '});', '', `export type ${cap(table)}Row = typeof ${table}.$inferSelect;`, '');
    for (const l of lines) size += l.length + 1;
    out.push(...lines);
  }
  return out.join('\n');
}

function genRates(r: Rng): string {
  const days = r.int(200, 365);
  const out = ['{', '  "base": "EUR",', '  "source": "ecb",', '  "rates": ['];
  const level = CURRENCIES.map((c) => (c === 'JPY' ? 160 : c === 'CNY' ? 7.8 : c === 'SEK' ? 11.3 : c === 'PLN' ? 4.3 : c === 'CZK' ? 25 : 1));
  const d = new Date(Date.UTC(2025, 0, 1));
  for (let i = 0; i < days; i++) {
    const parts = CURRENCIES.map((c, j) => `"${c}": ${((level[j] ?? 1) * (1 + (r.next() - 0.5) * 0.04)).toFixed(4)}`);
    out.push(`    { "date": "${d.toISOString().slice(0, 10)}", ${parts.join(', ')} }${i < days - 1 ? ',' : ''}`);
    d.setUTCDate(d.getUTCDate() + (d.getUTCDay() === 5 ? 3 : 1));
  }
  out.push('  ]', '}');
  return out.join('\n');
}

function genInvoices(r: Rng): string {
  const target = r.int(20_000, 55_000);
  const out: string[] = ['['];
  let size = 0;
  for (let i = 0; size < target; i++) {
    const line = `  {"id": "inv_${(10_000 + i).toString(36)}", "customerId": "cus_${r.hex(8)}", "currency": "${r.pick(['EUR', 'USD', 'JPY'])}", "total": ${r.int(500, 900_000)}, "status": "${r.pick(['paid', 'open', 'void', 'draft'])}", "issuedAt": "2025-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}", "lines": ${r.int(1, 12)}},`;
    size += line.length + 1;
    out.push(line);
  }
  out.push('  {"id": "inv_end", "customerId": null, "currency": "EUR", "total": 0, "status": "void", "issuedAt": "2025-12-31", "lines": 0}', ']');
  return out.join('\n');
}

export class Repo {
  private readonly cache = new Map<string, string>();
  private readonly lineCache = new Map<string, string[]>();

  constructor(private readonly seed: number) {}

  lines(path: string): string[] {
    let lines = this.lineCache.get(path);
    if (lines === undefined) {
      lines = this.content(path).split('\n');
      this.lineCache.set(path, lines);
    }
    return lines;
  }

  content(path: string): string {
    let text = this.cache.get(path);
    if (text === undefined) {
      text = this.generate(path);
      this.cache.set(path, text);
    }
    return text;
  }

  private generate(path: string): string {
    const spec = TREE_BY_PATH.get(path);
    const r = new Rng(hashString(path) ^ this.seed);
    if (!spec) return '';
    switch (spec.kind) {
      case 'ts':
        return genTs(spec, r);
      case 'test-ts':
        return genTestTs(spec, r);
      case 'py':
        return genPy(spec, r);
      case 'test-py':
        return genTestPy(spec, r);
      case 'md':
      case 'md-ja':
      case 'md-zh':
        return genMarkdown(spec, r);
      case 'locale':
        return genLocale(spec);
      case 'schema':
        return genSchema(r);
      case 'rates':
        return genRates(r);
      case 'invoices':
        return genInvoices(r);
      case 'static':
        return STATIC_FILES[path] ?? '';
    }
  }
}
