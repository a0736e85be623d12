/**
 * Glob patterns as regular expressions over '/'-separated paths, for the `glob` tool, grep's file
 * filter and `.gitignore` rules: `*` and `?` stay within one segment, `**` as a whole segment
 * spans any number of them (zero included), `[abc]` / `[!a-z]` are classes, `\x` is a literal
 * `x`, and (glob only) `{a,b}` are alternatives within a segment.
 */

export interface GlobSyntax {
  /** `{a,b}` alternatives (the glob tool); `.gitignore` has none. Default true. */
  braces?: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** One path segment (no '/') as regex source. */
function segmentSource(segment: string, braces: boolean): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (ch === '\\' && i + 1 < segment.length) {
      out += escapeRegExp(segment[++i]!);
    } else if (ch === '*') {
      while (segment[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      body = body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]').replace(/\//g, '');
      out += negate ? `[^/${body}]` : `[${body}]`;
      i = close;
    } else if (braces && ch === '{') {
      depth++;
      out += '(?:';
    } else if (braces && ch === ',' && depth > 0) {
      out += '|';
    } else if (braces && ch === '}' && depth > 0) {
      depth--;
      out += ')';
    } else {
      out += escapeRegExp(ch);
    }
  }
  // An unclosed brace is a literal text in effect; close the groups so the regex is valid.
  return out + ')'.repeat(depth);
}

/** Regex source (unanchored) for a whole pattern of '/'-separated segments. */
export function globSource(pattern: string, syntax: GlobSyntax = {}): string {
  const braces = syntax.braces ?? true;
  const segments = pattern.split('/').filter((segment, i, all) => segment !== '' || i === all.length - 1);
  let out = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') out += last ? '.*' : '(?:[^/]+/)*';
    else out += segmentSource(segment, braces) + (last ? '' : '/');
  });
  return out;
}

/** The pattern as an anchored RegExp over a whole relative path. */
export function globToRegExp(pattern: string, syntax: GlobSyntax = {}): RegExp {
  return new RegExp(`^${globSource(pattern, syntax)}$`);
}

/** True when the text holds a glob metacharacter. */
export function hasGlobMagic(text: string, syntax: GlobSyntax = {}): boolean {
  return (syntax.braces ?? true) ? /[*?[{\\]/.test(text) : /[*?[\\]/.test(text);
}

/**
 * The leading segments of a pattern with no metacharacter: the directory a walk can start from
 * (`src/core/**\/*.ts` → `src/core`), and the rest of the pattern relative to it.
 */
export function splitLiteralPrefix(pattern: string): { base: string; rest: string } {
  const segments = pattern.split('/');
  const base: string[] = [];
  while (segments.length > 1 && !hasGlobMagic(segments[0]!) && segments[0] !== '') base.push(segments.shift()!);
  return { base: base.join('/'), rest: segments.join('/') };
}
