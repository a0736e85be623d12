import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codeSpan, escapeMarkdownText } from './markdown-text.ts';

describe('escapeMarkdownText', () => {
  it('escapes raw HTML and entities in prose so a viewer shows them as typed', () => {
    expect(escapeMarkdownText('Look: <script>alert(1)</script> and <img src=x onerror="alert(2)"> & &lt;')).toBe(
      'Look: &lt;script>alert(1)&lt;/script> and &lt;img src=x onerror="alert(2)"> &amp; &amp;lt;',
    );
    expect(escapeMarkdownText('<details open>\n\n<iframe src="https://evil.example">')).toBe('&lt;details open>\n\n&lt;iframe src="https://evil.example">');
  });

  it('keeps fenced code and inline code spans verbatim', () => {
    const text = 'Use `Array<string>` here.\n\n```ts\nconst a: Map<string, number> = new Map();\n```\n\n~~~~\n<b>raw</b>\n~~~~\nafter <b>';
    expect(escapeMarkdownText(text)).toBe('Use `Array<string>` here.\n\n```ts\nconst a: Map<string, number> = new Map();\n```\n\n~~~~\n<b>raw</b>\n~~~~\nafter &lt;b>');
  });

  it('closes a fence the text leaves open, so it cannot swallow what follows', () => {
    expect(escapeMarkdownText('```sh\nnpm start <x>')).toBe('```sh\nnpm start <x>\n```');
    expect(escapeMarkdownText('~~~~\na\n~~~\nb')).toBe('~~~~\na\n~~~\nb\n~~~~');
  });

  it('escapes wherever a viewer might not see code: spans across lines, escaped backticks, table pipes, bad fences', () => {
    // A code span cannot cross a line break into another block here, so the tag between is escaped.
    expect(escapeMarkdownText('`a\n\n<img onerror=x>\n\n`')).toBe('`a\n\n&lt;img onerror=x>\n\n`');
    // \` is a literal backtick: the next run pairs with the one after the tag, not before it.
    expect(escapeMarkdownText('\\``a` <img onerror=x>`')).toBe('\\``a` &lt;img onerror=x>`');
    // In a table row the pipe splits cells even inside backticks.
    expect(escapeMarkdownText('| `a | <img onerror=x> | b` |')).toBe('| `a | &lt;img onerror=x> | b` |');
    // A backtick fence whose info string holds a backtick is not a fence.
    expect(escapeMarkdownText('``` a`b\n<script>x</script>')).toBe('``` a`b\n&lt;script>x&lt;/script>');
    // Indented four spaces is not a fence either.
    expect(escapeMarkdownText('para\n    ```\n<b>')).toBe('para\n    ```\n&lt;b>');
  });

  it('outside code, leaves no `<` and loses no character (decoding gives the text back)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '&', ';', 'l', 't', 'a', 'm', 'p', '\n', ' ', '|', '\\', '/') }), (text) => {
        const out = escapeMarkdownText(text);
        expect(out).not.toContain('<');
        expect(out.replace(/&lt;/g, '<').replace(/&amp;/g, '&')).toBe(text);
      }),
    );
  });
});

describe('codeSpan', () => {
  it('wraps a name in a span its backticks cannot close', () => {
    expect(codeSpan('Read')).toBe('`Read`');
    expect(codeSpan('a`<img onerror=x>`b')).toBe('``a`<img onerror=x>`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
  });
});
