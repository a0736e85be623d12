/** The demo session's fake repository: its files, the paths the agent misses, the big files and the globs it searches. */

export type FileKind = 'ts' | 'test-ts' | 'py' | 'test-py' | 'md' | 'md-ja' | 'md-zh' | 'locale' | 'schema' | 'rates' | 'invoices' | 'static';

export interface FileSpec {
  path: string;
  kind: FileKind;
  /** Exported names the file defines (grep targets). */
  symbols?: string[];
  /** Adds Japanese/Chinese comments. */
  cjk?: boolean;
  /** Locale code for locale files. */
  locale?: 'en' | 'ja' | 'zh-CN';
}

export const TREE: readonly FileSpec[] = [
  { path: 'package.json', kind: 'static' },
  { path: 'tsconfig.json', kind: 'static' },
  { path: 'vitest.config.ts', kind: 'static' },
  { path: 'README.md', kind: 'md' },
  { path: 'CHANGELOG.md', kind: 'md' },
  { path: 'docs/ARCHITECTURE.md', kind: 'md' },
  { path: 'docs/i18n/ja.md', kind: 'md-ja' },
  { path: 'docs/i18n/zh-CN.md', kind: 'md-zh' },
  { path: 'src/index.ts', kind: 'ts', symbols: ['main'] },
  { path: 'src/server.ts', kind: 'ts', symbols: ['createServer', 'closeServer'] },
  { path: 'src/config.ts', kind: 'ts', symbols: ['loadConfig'] },
  { path: 'src/types.ts', kind: 'ts', symbols: ['toInvoiceId'] },
  { path: 'src/routes/invoices.ts', kind: 'ts', symbols: ['listInvoices', 'getInvoice', 'createInvoice'] },
  { path: 'src/routes/customers.ts', kind: 'ts', symbols: ['listCustomers', 'updateCustomer'] },
  { path: 'src/routes/reports.ts', kind: 'ts', symbols: ['monthlyReport'] },
  { path: 'src/services/billing.ts', kind: 'ts', symbols: ['summarizeLedger', 'issueInvoice'] },
  { path: 'src/services/currency.ts', kind: 'ts', symbols: ['convert', 'rateFor', 'previousBusinessDay'], cjk: true },
  { path: 'src/services/tax.ts', kind: 'ts', symbols: ['computeTax', 'taxRegionOf'] },
  { path: 'src/services/reconcile.ts', kind: 'ts', symbols: ['reconcileBatch'] },
  { path: 'src/db/client.ts', kind: 'ts', symbols: ['getDb', 'withTransaction'] },
  { path: 'src/db/schema.ts', kind: 'schema' },
  { path: 'src/lib/money.ts', kind: 'ts', symbols: ['money', 'allocate', 'addMoney', 'formatMoney'], cjk: true },
  { path: 'src/lib/dates.ts', kind: 'ts', symbols: ['addMonths', 'endOfMonth', 'isBusinessDay'], cjk: true },
  { path: 'src/lib/errors.ts', kind: 'ts', symbols: ['LedgerError', 'isLedgerError'] },
  { path: 'src/lib/logger.ts', kind: 'ts', symbols: ['logger', 'childLogger'] },
  { path: 'src/lib/i18n.ts', kind: 'ts', symbols: ['t', 'missingKeys'], cjk: true },
  { path: 'locales/en.json', kind: 'locale', locale: 'en' },
  { path: 'locales/ja.json', kind: 'locale', locale: 'ja' },
  { path: 'locales/zh-CN.json', kind: 'locale', locale: 'zh-CN' },
  { path: 'test/money.test.ts', kind: 'test-ts' },
  { path: 'test/dates.test.ts', kind: 'test-ts' },
  { path: 'test/currency.test.ts', kind: 'test-ts' },
  { path: 'test/billing.test.ts', kind: 'test-ts' },
  { path: 'test/tax.test.ts', kind: 'test-ts' },
  { path: 'test/routes.test.ts', kind: 'test-ts' },
  { path: 'test/i18n.test.ts', kind: 'test-ts' },
  { path: 'scripts/etl/pyproject.toml', kind: 'static' },
  { path: 'scripts/etl/requirements.txt', kind: 'static' },
  { path: 'scripts/etl/models.py', kind: 'py', symbols: ['Payment', 'BankTransaction'] },
  { path: 'scripts/etl/reconcile.py', kind: 'py', symbols: ['match_payments', 'dedupe_transactions', 'load_export'], cjk: true },
  { path: 'scripts/etl/import_rates.py', kind: 'py', symbols: ['fetch_rates', 'write_rates', 'main'], cjk: true },
  { path: 'scripts/etl/tests/test_reconcile.py', kind: 'test-py' },
  { path: 'scripts/etl/tests/test_import_rates.py', kind: 'test-py' },
  { path: 'fixtures/rates-2025.json', kind: 'rates' },
  { path: 'fixtures/invoices-large.json', kind: 'invoices' },
];

export const MISSING_FILES = ['src/lib/currency.ts', 'src/utils/money.ts', 'test/invoices.test.ts', 'scripts/etl/rates.py', 'src/services/payments.ts', 'src/routes/index.ts'];

export const BIG_FILES = ['src/db/schema.ts', 'fixtures/rates-2025.json', 'fixtures/invoices-large.json'];

export const GLOBS: readonly (readonly [string, (p: string) => boolean])[] = [
  ['**/*.test.ts', (p) => p.endsWith('.test.ts')],
  ['src/**/*.ts', (p) => p.startsWith('src/') && p.endsWith('.ts')],
  ['scripts/etl/**/*.py', (p) => p.startsWith('scripts/etl/') && p.endsWith('.py')],
  ['**/*.md', (p) => p.endsWith('.md')],
  ['locales/*.json', (p) => p.startsWith('locales/')],
  ['src/services/*.ts', (p) => p.startsWith('src/services/')],
  ['**/*.{json,toml}', (p) => p.endsWith('.json') || p.endsWith('.toml')],
];
