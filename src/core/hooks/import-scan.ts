/**
 * Finds the `import` keywords a module's code really uses (static `import … from`, `import(…)`,
 * `import.meta`), skipping comments, strings, template text and regular expressions, so a hook may
 * say "import" in a comment or a message. The one place a JavaScript reader cannot tell code from
 * text without parsing is a `/` that may divide or start a regular expression; where this scanner
 * meets such a `/` it cannot place for sure (after a `}`, `++`, `--` or `of`), it reports the `/`,
 * and the caller treats every occurrence of the word as code (see `importProblem`).
 */

/** What the scan found: the first `import` used as code, and the first `/` whose reading was a guess. */
export interface ImportScan {
  /** Offset of the first `import` keyword in code (not after `.`, not an object key). */
  importAt?: number;
  /** Offset of the first `/` that could either divide or start a regular expression. */
  ambiguousSlashAt?: number;
}

/** How the last token leaves a following `/`: dividing, starting a regular expression, or unknown. */
type SlashAfter = 'divide' | 'regex' | 'ambiguous';

const LINE_END = /[\n\r\u2028\u2029]/;
const ID_START = /[\p{ID_Start}$_\\]/u;
const ID_PART = /[\p{ID_Continue}$\\]|\u200c|\u200d/u;
/** Keywords after which a `/` starts a regular expression (an expression must follow them). */
const BEFORE_EXPRESSION = new Set(['return', 'typeof', 'instanceof', 'in', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends']);
/** Statement keywords whose parenthesised head is followed by a statement, where `/` starts a regular expression. */
const CONDITION = new Set(['if', 'while', 'for', 'with']);

/** Scans `source` as an ES module's text. */
export function scanImports(source: string): ImportScan {
  const result: ImportScan = {};
  const n = source.length;
  let i = 0;
  let slash = 'regex' as SlashAfter;
  // The last two tokens' text (words and punctuators; '' for literals), for `x.import` and `if (`.
  let prev = '';
  let prevPrev = '';
  const token = (text: string, after: SlashAfter) => {
    prevPrev = prev;
    prev = text;
    slash = after;
  };
  // Each '(' says whether it opens an if/while/for/with head; each '{' whether it is a `${`.
  const parens: boolean[] = [];
  const braces: ('brace' | 'template')[] = [];

  /** Reads template text from i (after ` or a substitution's }) up to the closing ` or the next ${. */
  const readTemplate = () => {
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        token('', 'divide');
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        braces.push('template');
        token('${', 'regex');
        return;
      } else i++;
    }
  };
  const skipRegex = () => {
    i++;
    let inClass = false;
    while (i < n && !LINE_END.test(source[i]!)) {
      const c = source[i];
      if (c === '\\') i++;
      else if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      else if (c === '/' && !inClass) break;
      i++;
    }
    i++;
    while (i < n && ID_PART.test(source[i]!)) i++;
    token('', 'divide');
  };

  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && next === '/') {
      while (i < n && !LINE_END.test(source[i]!)) i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '/') {
      if (slash === 'ambiguous') result.ambiguousSlashAt ??= i;
      if (slash === 'divide') {
        i += next === '=' ? 2 : 1;
        token('/', 'regex');
      } else skipRegex();
    } else if (c === '"' || c === "'") {
      i++;
      while (i < n && source[i] !== c) i += source[i] === '\\' ? 2 : 1;
      i++;
      token('', 'divide');
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (ID_START.test(c) || (c === '#' && next !== undefined && ID_START.test(next))) {
      const start = i;
      i++;
      while (i < n && ID_PART.test(source[i]!)) i++;
      const word = source.slice(start, i);
      const member = prev === '.' || prev === '?.';
      // `x.import` and `{ import: 1 }` are names, not the keyword.
      if (word === 'import' && !member && !/^\s*:/.test(source.slice(i, i + 64))) result.importAt ??= start;
      const keyword = !member && BEFORE_EXPRESSION.has(word);
      // `of` is a keyword in `for (x of /re/)` and may be a variable elsewhere.
      token(member ? `.${word}` : word, keyword ? 'regex' : !member && word === 'of' ? 'ambiguous' : 'divide');
    } else if (/[0-9]/.test(c) || (c === '.' && next !== undefined && /[0-9]/.test(next))) {
      i++;
      while (i < n && /[\w.]/.test(source[i]!)) i++;
      token('', 'divide');
    } else if (c === '(') {
      parens.push((CONDITION.has(prev) && prevPrev !== '.' && prevPrev !== '?.') || (prev === 'await' && prevPrev === 'for'));
      i++;
      token('(', 'regex');
    } else if (c === ')') {
      i++;
      token(')', parens.pop() ? 'regex' : 'divide');
    } else if (c === ']') {
      i++;
      token(']', 'divide');
    } else if (c === '{') {
      braces.push('brace');
      i++;
      token('{', 'regex');
    } else if (c === '}') {
      i++;
      // A block's end is followed by a statement (a `/` starts a regular expression), an object
      // literal's by an operator (a `/` divides): telling them apart needs a parser.
      if (braces.pop() === 'template') readTemplate();
      else token('}', 'ambiguous');
    } else if ((c === '+' || c === '-') && next === c) {
      i += 2;
      token(c + c, 'ambiguous');
    } else if (c === '.' && next === '.' && source[i + 2] === '.') {
      i += 3;
      token('...', 'regex');
    } else if (c === '?' && next === '.' && !/[0-9]/.test(source[i + 2] ?? '')) {
      i += 2;
      token('?.', 'regex');
    } else {
      i++;
      token(c, 'regex');
    }
  }
  return result;
}
