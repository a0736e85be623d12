/** Vocabulary the demo generator writes code, prose and fixtures from: names, error codes, comments and sentences in English, Japanese and Chinese, locale strings, currencies. */

export const NOUNS = ['invoice', 'customer', 'ledger', 'rate', 'payment', 'entry', 'period', 'account', 'statement', 'refund', 'discount', 'batch', 'line', 'report', 'credit'];

export const VERBS = ['build', 'resolve', 'normalize', 'apply', 'compute', 'merge', 'validate', 'format', 'load', 'collect', 'split', 'convert', 'group', 'round', 'find'];

export const FIELDS = ['id', 'amount', 'currency', 'issuedAt', 'dueAt', 'status', 'customerId', 'lines', 'total', 'taxRate', 'period', 'reference', 'note', 'createdAt'];

export const ERROR_CODES = ['NOT_FOUND', 'RATE_MISSING', 'INVALID_LIMIT', 'CURRENCY_MISMATCH', 'PERIOD_CLOSED', 'DUPLICATE_ENTRY', 'INVALID_AMOUNT'];

export const PURPOSES = ['for the current billing period', 'before it is persisted', 'so totals stay in minor units', 'from the raw database row', 'for display in reports', 'and drops cancelled entries'];

export const CJK_COMMENTS = [
  '金額は最小単位（円・セント）で保持する',
  '端数は先頭の項目から順に配分する',
  '月末を超えた場合はその月の末日に丸める',
  '営業日でなければ前の営業日のレートを使う',
  'ここでは丸め誤差を許容しない',
  '注意: タイムゾーンは常に UTC として扱う',
  '金额以最小货币单位存储，避免浮点误差',
  '汇率缺失时回退到上一个工作日',
  '这里的顺序很重要，不要随意调整',
  'TODO: 等后端支持批量接口后再优化',
];

export const JA_SENTENCES = [
  'ledgerly は小規模チーム向けの請求・入金管理ツールです。',
  '金額はすべて最小通貨単位の整数で保存され、表示時にのみ小数に変換されます。',
  '為替レートは毎日 import_rates.py によって取り込まれます。',
  '営業日以外の日付では、直前の営業日のレートが使われます。',
  '翻訳キーを追加する場合は、必ず en.json にも同じキーを追加してください。',
  '締め済みの会計期間に対する変更は PERIOD_CLOSED エラーになります。',
  '消費税は請求書単位で切り捨てて計算します。',
  'テストは `npm test` で実行できます。Python 側は `pytest scripts/etl` を使ってください。',
];

export const ZH_SENTENCES = [
  'ledgerly 是一个面向小团队的开票与收款管理工具。',
  '所有金额都以最小货币单位的整数保存，只在显示时转换为小数。',
  '汇率每天由 import_rates.py 导入。',
  '如果日期不是工作日，则使用上一个工作日的汇率。',
  '新增翻译键时，请同时在 en.json 中添加相同的键。',
  '对已结账会计期间的修改会返回 PERIOD_CLOSED 错误。',
  '运行 `npm test` 执行前端和 API 测试，Python 部分使用 `pytest scripts/etl`。',
];

export const EN_SENTENCES = [
  'ledgerly is an invoicing and payment-tracking tool for small teams.',
  'Amounts are stored as integers in minor units and only formatted for display.',
  'Exchange rates are imported daily by `scripts/etl/import_rates.py`.',
  'Routes are thin: validation lives in the route, business rules in `src/services/`.',
  'Every error is a `LedgerError` with a stable code that the UI translates.',
  'Closed accounting periods are immutable; corrections are new entries.',
  'The ETL scripts are plain Python 3.12 with no framework.',
];

export const LOCALE_TEXT: Record<string, Record<string, string>> = {
  en: { NOT_FOUND: 'Not found', RATE_MISSING: 'No exchange rate for {currency} on {date}', INVALID_LIMIT: 'limit must be between 1 and 100', CURRENCY_MISMATCH: 'Currencies do not match', PERIOD_CLOSED: 'The period {period} is closed', DUPLICATE_ENTRY: 'Duplicate entry', INVALID_AMOUNT: 'Invalid amount {amount}' },
  ja: { NOT_FOUND: '見つかりません', CURRENCY_MISMATCH: '通貨が一致しません', PERIOD_CLOSED: '会計期間 {period} は締め済みです', DUPLICATE_ENTRY: '重複したエントリです', INVALID_AMOUNT: '金額 {amount} が不正です' },
  'zh-CN': { NOT_FOUND: '未找到', RATE_MISSING: '{date} 没有 {currency} 的汇率', INVALID_LIMIT: 'limit 必须在 1 到 100 之间', CURRENCY_MISMATCH: '币种不一致', PERIOD_CLOSED: '会计期间 {period} 已结账', DUPLICATE_ENTRY: '重复的条目', INVALID_AMOUNT: '金额 {amount} 无效' },
};

export const CURRENCIES = ['USD', 'JPY', 'GBP', 'CHF', 'CNY', 'SEK', 'PLN', 'CZK'];
