// Messages render as markdown elements: headings, lists, code, tables and http(s)/mailto links
// work; raw HTML, scripts, handlers, javascript:/data: links and images stay inert text.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeHref } from './markdown-render.tsx';
import { loadMarkdown, MarkdownText } from './MarkdownText.tsx';

const html = (text: string) => renderToStaticMarkup(createElement('div', null, renderMarkdown(text)));

describe('renderMarkdown', () => {
  it('renders headings, lists, code blocks, inline code, tables and emphasis as elements', () => {
    const out = html('# Plan\n\n- read\n- fix\n\n1. one\n\n```ts\nconst a = 1 < 2;\n```\n\n| file | lines |\n|---|---|\n| a.ts | 12 |\n\nsome *em* **strong** `x()`');
    expect(out).toContain('<div class="md-heading md-h1">Plan</div>');
    expect(out).toContain('<ul><li>read</li><li>fix</li></ul>');
    expect(out).toContain('<ol');
    expect(out).toMatch(/<pre><code class="[^"]*lang-ts[^"]*">const a = 1 &lt; 2;<\/code><\/pre>/);
    expect(out).toContain('<th>file</th>');
    expect(out).toContain('<td>a.ts</td>');
    expect(out).toContain('<em>em</em> <strong>strong</strong> <code>x()</code>');
  });

  it('shows a task list\'s boxes as marks, not as unlabelled form controls', () => {
    const out = html('- [x] done\n- [ ] open');
    expect(out).not.toContain('<input');
    expect(out).toContain('☑');
    expect(out).toContain('☐');
  });

  it('gives headings no id, so a message cannot clash with the page', () => {
    expect(html('# root\n\n## app')).not.toMatch(/\sid=/);
  });

  it('opens http(s) and mailto links in a new tab without opener or referrer', () => {
    const out = html('[site](https://example.com/a?b=1) [mail](mailto:dev@example.com) <http://x.example/>');
    expect(out).toContain('<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">site</a>');
    expect(out).toContain('<a href="mailto:dev@example.com" target="_blank" rel="noopener noreferrer">mail</a>');
    expect(out).toContain('<a href="http://x.example/" target="_blank" rel="noopener noreferrer">');
  });

  it('keeps the words of any other link but no address: javascript:, data:, vbscript:, relative, obfuscated', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:msgbox', './notes.md', '#top', '//evil.example/x']) {
      const out = html(`[click](${href})`);
      expect(out, href).not.toContain('<a');
      expect(out, href).not.toContain('href');
      expect(out, href).toContain('click');
    }
  });

  it('shows raw HTML as text: scripts, event handlers, iframes, raw links never become elements', () => {
    const hostile = '<script>alert(1)</script>\n\nhi <img src=x onerror="alert(1)"> there\n\n<div onclick="alert(1)">raw</div>\n\n<iframe src="javascript:alert(1)"></iframe>\n\n<a href="javascript:alert(1)">a</a>\n\n<style>body{display:none}</style>';
    const out = html(hostile);
    for (const tag of ['<script', '<img', '<iframe', '<style', '<a ', 'onerror="', 'onclick="']) expect(out, tag).not.toContain(tag);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('names an image instead of loading it', () => {
    const out = html('![diagram](https://tracker.example/pixel.png)');
    expect(out).not.toContain('<img');
    expect(out).toContain('🖼 diagram');
  });

  it('reads a leading --- block as text, not as hidden front matter', () => {
    expect(html('---\nsecret: shown\n---\nbody')).toContain('secret: shown');
  });
});

describe('safeHref', () => {
  it('accepts absolute http(s) and mailto only', () => {
    expect(safeHref('https://a.example')).toBe('https://a.example');
    expect(safeHref('HTTP://a.example')).toBe('HTTP://a.example');
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example');
    for (const bad of [undefined, '', 'javascript:x', 'data:image/png;base64,AA', 'ftp://x', '/local', 'https:/x']) expect(safeHref(bad), String(bad)).toBeNull();
  });
});

describe('MarkdownText', () => {
  it('shows the text as written until the renderer has loaded, then as markdown', async () => {
    const before = renderToStaticMarkup(createElement(MarkdownText, { text: '**bold** <b>x</b>' }));
    expect(before).toBe('<pre class="markdown-pending">**bold** &lt;b&gt;x&lt;/b&gt;</pre>');
    await loadMarkdown();
    const after = renderToStaticMarkup(createElement(MarkdownText, { text: '**bold** <b>x</b>' }));
    expect(after).toBe('<div class="markdown"><strong>bold</strong> &lt;b&gt;x&lt;/b&gt;</div>');
  });
});
