/** What the demo session's user asks for: the tasks (prompt, files, failing test, fix), constraints and follow-ups. */

export interface Task {
  title: string;
  branch: string;
  lang: 'ts' | 'py';
  prompt: string;
  /** Prompt in Japanese or Chinese; when present the turn is usually in that language. */
  cjkPrompt?: { lang: 'ja' | 'zh'; text: string };
  files: string[];
  test: string;
  symbol: string;
  suite: string;
  cases: string[];
  expected: string;
  received: string;
  /** A runtime error thrown by the code under test, for a stack trace instead of an assertion. */
  thrown?: string;
  bullets: string[];
}

export const TASKS: readonly Task[] = [
  {
    title: 'Money allocation remainder fix',
    branch: 'fix/allocate-remainder',
    lang: 'ts',
    prompt: '`allocate()` in src/lib/money.ts puts the whole rounding remainder on the last part, but finance wants it spread over the first parts (largest-remainder method). Fix it and add tests.',
    files: ['src/lib/money.ts'],
    test: 'test/money.test.ts',
    symbol: 'allocate',
    suite: 'allocate',
    cases: ['splits the remainder over the first parts', 'keeps the total for negative amounts', 'rejects an empty ratio list', 'handles zero ratios'],
    expected: '[ 34, 33, 33 ]',
    received: '[ 33, 33, 34 ]',
    bullets: ['`allocate()` now uses the largest-remainder method, so remainders land on the first parts', 'negative totals are allocated symmetrically', 'added 3 test cases, including zero ratios'],
  },
  {
    title: 'Weekend currency conversion crash',
    branch: 'fix/weekend-rates',
    lang: 'ts',
    prompt: "Converting an invoice dated on a weekend throws `TypeError: Cannot read properties of undefined (reading 'rate')`. Use the previous business day's rate instead.",
    cjkPrompt: {
      lang: 'ja',
      text: "週末の日付の請求書を換算すると `TypeError: Cannot read properties of undefined (reading 'rate')` が出ます。その場合は直前の営業日のレートを使うようにしてください。テストは緑のままでお願いします。",
    },
    files: ['src/services/currency.ts', 'src/lib/dates.ts'],
    test: 'test/currency.test.ts',
    symbol: 'rateFor',
    suite: 'convert',
    cases: ['uses the previous business day on weekends', 'converts EUR to JPY with 0 decimals', 'throws RATE_MISSING for unknown currencies'],
    expected: '12450',
    received: 'undefined',
    thrown: "TypeError: Cannot read properties of undefined (reading 'rate')",
    bullets: ['`rateFor()` falls back to `previousBusinessDay()` when there is no rate for the date', 'an unknown currency now raises `LedgerError("RATE_MISSING")` instead of a TypeError', 'added weekend and holiday cases to the currency tests'],
  },
  {
    title: 'Cursor pagination for GET /invoices',
    branch: 'feat/invoice-pagination',
    lang: 'ts',
    prompt: 'Add cursor pagination to GET /invoices (`limit` + `cursor` query params, max 100). Existing clients only read `items`, so the response must stay backwards compatible.',
    files: ['src/routes/invoices.ts', 'src/types.ts'],
    test: 'test/routes.test.ts',
    symbol: 'listInvoices',
    suite: 'GET /invoices',
    cases: ['returns the first page with a nextCursor', 'rejects limit above 100', 'keeps the items field for old clients'],
    expected: '400',
    received: '200',
    bullets: ['`GET /invoices` accepts `limit` (1–100, default 50) and an opaque `cursor`', 'the response keeps `items` and adds `nextCursor`', 'invalid limits return 400 with `INVALID_LIMIT`'],
  },
  {
    title: 'Reconcile duplicate bank transactions',
    branch: 'fix/reconcile-duplicates',
    lang: 'py',
    prompt: 'reconcile.py double-counts payments when the bank export has duplicate transaction ids. Dedupe by (txn_id, amount, booked_at) and log how many were dropped.',
    cjkPrompt: {
      lang: 'zh',
      text: '银行导出里有重复的交易 ID 时，reconcile.py 会把付款算两次。请按 (txn_id, amount, booked_at) 去重，并记录丢弃了多少条。不要改动公开接口，测试要保持通过。',
    },
    files: ['scripts/etl/reconcile.py', 'scripts/etl/models.py'],
    test: 'scripts/etl/tests/test_reconcile.py',
    symbol: 'match_payments',
    suite: 'test_reconcile',
    cases: ['test_duplicate_transactions_are_counted_once', 'test_partial_payment_matches', 'test_dropped_duplicates_are_logged'],
    expected: '2',
    received: '3',
    bullets: ['`dedupe_transactions()` drops exact duplicates on `(txn_id, amount, booked_at)`', '`match_payments()` logs the number of dropped rows at INFO level', 'two new pytest cases cover duplicates and logging'],
  },
  {
    title: 'Japanese translations for error codes',
    branch: 'i18n/ja-errors',
    lang: 'ts',
    prompt: 'Some error messages are missing from locales/ja.json. Add a translation for every LedgerError code, and make a test fail when a key is missing.',
    cjkPrompt: {
      lang: 'ja',
      text: 'エラーメッセージの日本語訳が locales/ja.json で一部抜けています。`LedgerError` のコードごとに翻訳を追加して、キーが足りない場合はテストで検出できるようにしてください。',
    },
    files: ['locales/ja.json', 'src/lib/i18n.ts'],
    test: 'test/i18n.test.ts',
    symbol: 'missingKeys',
    suite: 'locales',
    cases: ['ja has every key of en', 'zh-CN has every key of en', 'interpolates {amount} placeholders'],
    expected: '[]',
    received: "[ 'errors.RATE_MISSING', 'errors.INVALID_LIMIT' ]",
    bullets: ['added the missing `errors.*` keys to `locales/ja.json`', '`missingKeys()` compares every locale against `en.json`', 'the locale test now fails on any missing key'],
  },
  {
    title: 'Tax calculation strategies',
    branch: 'refactor/tax-strategies',
    lang: 'ts',
    prompt: 'Refactor computeTax into per-region strategies (EU VAT, US sales tax, JP consumption tax). Pure refactor, no behaviour change, and keep the diff reviewable.',
    files: ['src/services/tax.ts'],
    test: 'test/tax.test.ts',
    symbol: 'computeTax',
    suite: 'computeTax',
    cases: ['applies reduced VAT for books in DE', 'rounds JP consumption tax down per invoice', 'uses the ship-to state for US sales tax'],
    expected: '1091',
    received: '1090',
    bullets: ['`computeTax()` dispatches to one strategy per region (`euVat`, `usSalesTax`, `jpConsumptionTax`)', 'rounding stays per invoice for JP and per line elsewhere, as before', 'no change to the exported signature; all existing tax tests pass unchanged'],
  },
  {
    title: 'Dry-run flag for import_rates.py',
    branch: 'feat/import-rates-dry-run',
    lang: 'py',
    prompt: 'Add a --dry-run flag to import_rates.py: print the rates it would write and skip the database.',
    cjkPrompt: {
      lang: 'zh',
      text: '给 import_rates.py 加一个 --dry-run 参数：只打印将要写入的汇率，不写数据库。请保持现有测试通过，不要引入新的依赖。',
    },
    files: ['scripts/etl/import_rates.py'],
    test: 'scripts/etl/tests/test_import_rates.py',
    symbol: 'write_rates',
    suite: 'test_import_rates',
    cases: ['test_dry_run_does_not_write', 'test_dry_run_prints_table', 'test_rates_are_upserted'],
    expected: '0',
    received: '12',
    bullets: ['`--dry-run` prints a table of the rates and returns before `write_rates()`', '`write_rates()` takes a `dry_run` keyword so the tests can assert nothing is written', 'no new dependencies (uses `argparse` and `logging` only)'],
  },
  {
    title: 'Linear-time ledger summary',
    branch: 'perf/summarize-ledger',
    lang: 'ts',
    prompt: 'summarizeLedger is O(n²) on large ledgers (the 40k-entry fixture takes 9 s). Make it linear without changing its output.',
    files: ['src/services/billing.ts'],
    test: 'test/billing.test.ts',
    symbol: 'summarizeLedger',
    suite: 'summarizeLedger',
    cases: ['matches the reference output on the large fixture', 'groups refunds with their invoice', 'keeps entry order within a period'],
    expected: "'2025-11'",
    received: "'2025-12'",
    bullets: ['`summarizeLedger()` builds one `Map` per period instead of filtering the ledger per entry', 'the 40k-entry fixture now runs in ~60 ms (was ~9 s)', 'output is byte-identical to the previous version on all fixtures'],
  },
  {
    title: 'Month-end clamping in addMonths',
    branch: 'fix/add-months-clamp',
    lang: 'ts',
    prompt: "addMonths('2026-01-31', 1) returns 2026-03-03. It should clamp to the end of the month. Fix it and add edge-case tests, leap years too.",
    files: ['src/lib/dates.ts'],
    test: 'test/dates.test.ts',
    symbol: 'addMonths',
    suite: 'addMonths',
    cases: ['clamps Jan 31 + 1 month to Feb 28', 'handles Feb 29 in leap years', 'subtracts months across a year boundary'],
    expected: "'2026-02-28'",
    received: "'2026-03-03'",
    bullets: ['`addMonths()` clamps the day to `endOfMonth()` of the target month', 'negative month offsets work across year boundaries', 'added leap-year cases (2024-02-29, 2100-02-28)'],
  },
  {
    title: 'Flaky routes test (EADDRINUSE)',
    branch: 'fix/flaky-routes-test',
    lang: 'ts',
    prompt: 'test/routes.test.ts is flaky in CI with EADDRINUSE. Find out why and fix it properly, not with retries.',
    files: ['src/server.ts', 'test/routes.test.ts'],
    test: 'test/routes.test.ts',
    symbol: 'createServer',
    suite: 'routes',
    cases: ['GET /health returns ok', 'closes the server after each file', 'two servers can run in parallel'],
    expected: "'listening'",
    received: "'error'",
    thrown: 'Error: listen EADDRINUSE: address already in use :::3000',
    bullets: ['the tests now listen on port 0 and read the assigned port back', '`closeServer()` awaits pending connections, and `afterAll` calls it', 'ran the suite 20 times in a loop without a failure'],
  },
];

export const CONSTRAINTS = [
  "Don't touch the public API.",
  'Keep tests green.',
  'No new dependencies.',
  'Keep the diff small.',
  'Run the full test suite before you finish.',
  'Follow the existing code style.',
  "Don't reformat unrelated code.",
];

export const FOLLOW_UPS = ['Thanks, that looks good.', 'Nice.', 'OK, merged that.', 'Great, CI is green.', 'Looks right to me.'];

/** The first task of each test file. */
export const TEST_TASK = new Map<string, Task>();
for (const task of TASKS) if (!TEST_TASK.has(task.test)) TEST_TASK.set(task.test, task);
