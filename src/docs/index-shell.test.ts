// The static shell of index.html says it is loading and what it waits for until the app mounts,
// with no inline script (the CSP refuses them) and its words readable by a screen reader.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HTML = readFileSync('index.html', 'utf8');

describe('index.html', () => {
  it('shows "Loading…" and what it waits for inside the root the app replaces', () => {
    const root = HTML.slice(HTML.indexOf('<div id="root">'), HTML.indexOf('<script'));
    expect(root).toMatch(/<p class="shell-loading" role="status"[^>]*>\s*<strong>Loading Foldlab…<\/strong> waiting for the app's scripts to download and start\./);
    // The note is not inside a part hidden from assistive technology.
    const before = root.slice(0, root.indexOf('shell-loading'));
    const hiddenOpen = (before.match(/<div[^>]*aria-hidden="true"[^>]*>/g) ?? []).length;
    const closedAfterHidden = before.split(/<div[^>]*aria-hidden="true"[^>]*>/).slice(1).every((part) => part.includes('</div>'));
    expect(hiddenOpen === 0 || closedAfterHidden).toBe(true);
  });

  it('has one script, the module entry, and no inline script', () => {
    const scripts = [...HTML.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toMatch(/type="module" src="\.\/src\/main\.tsx"/);
    expect(scripts[0]![2]!.trim()).toBe('');
  });
});
