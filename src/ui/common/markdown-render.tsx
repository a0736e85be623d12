/**
 * Markdown of a message or summary as React elements (never an HTML string), loaded as its own
 * chunk. Raw HTML in the text stays text, links open only for http(s) and mailto addresses (in a
 * new tab, with no opener and no referrer), and an image is named, never fetched: a transcript is
 * data from elsewhere, so nothing in it can run, load or navigate the page.
 */
import { Fragment, type ReactNode } from 'react';
import { compiler, type MarkdownToJSX } from 'markdown-to-jsx/react';

const SAFE_SCHEME = /^(https?:\/\/|mailto:)/i;

/** The address as a link may open it: absolute http(s) or mailto only, else null. */
export function safeHref(value: string | undefined): string | null {
  if (!value) return null;
  // Browsers drop tabs and newlines inside a scheme and ignore leading spaces/control characters.
  const cleaned = value.replace(/[\s\p{Cc}]/gu, '');
  return SAFE_SCHEME.test(cleaned) ? value.trim() : null;
}

function SafeLink({ href, title, children }: { href?: string; title?: string; children?: ReactNode }) {
  const target = safeHref(href);
  if (!target) return <span className="md-link-text">{children}</span>;
  return <a href={target} title={title} target="_blank" rel="noopener noreferrer">{children}</a>;
}

function ImageName({ alt, src }: { alt?: string; src?: string }) {
  return <span className="md-image" title={src ? `Image not loaded: ${src}` : 'Image not loaded'}>🖼 {alt || 'image'}</span>;
}

/**
 * A heading inside a message is the message's own structure, not the page's: shown as a bold line
 * (no id that could clash with the page's, no jump in the page's heading levels).
 */
function headingAs(level: number) {
  return function MessageHeading({ children }: { children?: ReactNode }) {
    return <div className={`md-heading md-h${level}`}>{children}</div>;
  };
}

/** A task-list box is the message's record, not a control: a mark, not an unlabelled checkbox. */
function TaskMark({ checked }: { checked?: boolean }) {
  return <span className="md-task">{checked ? '☑' : '☐'}</span>;
}

const OPTIONS: MarkdownToJSX.Options = {
  disableParsingRawHTML: true,
  disableFrontmatter: true,
  tagfilter: true,
  wrapper: Fragment,
  forceWrapper: true,
  // Whatever address survives this is still checked again by the link itself.
  sanitizer: (value) => safeHref(value),
  overrides: {
    a: SafeLink,
    img: ImageName,
    input: TaskMark,
    h1: headingAs(1), h2: headingAs(2), h3: headingAs(3), h4: headingAs(4), h5: headingAs(5), h6: headingAs(6),
  },
};

/** The text's markdown as elements, inside one `div.markdown`. */
export function renderMarkdown(text: string): ReactNode {
  return <div className="markdown">{compiler(text, OPTIONS)}</div>;
}
