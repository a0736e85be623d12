import { describe, expect, it } from 'vitest';
import { globToRegExp, splitLiteralPrefix } from './glob-pattern.ts';

const matches = (pattern: string, path: string) => globToRegExp(pattern).test(path);

describe('globToRegExp', () => {
  it('keeps * and ? within one segment', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true);
    expect(matches('*.ts', 'src/a.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
  });

  it('lets ** span zero or more directories', () => {
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('**/*.ts', 'a/b/c.ts')).toBe(true);
    expect(matches('src/**/x.ts', 'src/x.ts')).toBe(true);
    expect(matches('src/**/x.ts', 'src/a/b/x.ts')).toBe(true);
    expect(matches('src/**', 'src/a/b')).toBe(true);
  });

  it('reads {a,b} as alternatives and escapes regex characters', () => {
    expect(matches('*.{ts,tsx}', 'a.tsx')).toBe(true);
    expect(matches('*.{ts,tsx}', 'a.js')).toBe(false);
    expect(matches('a+b(1).txt', 'a+b(1).txt')).toBe(true);
    expect(matches('a.txt', 'abtxt')).toBe(false);
  });

  it('splits off the literal directories a walk can start from', () => {
    expect(splitLiteralPrefix('src/core/**/*.ts')).toEqual({ base: 'src/core', rest: '**/*.ts' });
    expect(splitLiteralPrefix('*.md')).toEqual({ base: '', rest: '*.md' });
    expect(splitLiteralPrefix('docs/readme.md')).toEqual({ base: 'docs', rest: 'readme.md' });
  });
});
