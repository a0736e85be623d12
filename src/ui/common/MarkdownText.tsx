/**
 * Message or summary text shown as markdown. The renderer is a chunk of its own, loaded at the
 * first use: until it is there the text shows as written (preformatted), then as elements. Once
 * loaded, every later block renders at once.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';

type Render = (text: string) => ReactNode;

let loaded: Render | undefined;
let loading: Promise<Render> | undefined;

/** Loads the renderer once; every caller shares the same promise. */
export function loadMarkdown(): Promise<Render> {
  loading ??= import('./markdown-render.tsx').then((module) => (loaded = module.renderMarkdown));
  return loading;
}

function useRenderer(): Render | undefined {
  const [render, setRender] = useState<Render | undefined>(() => loaded);
  useEffect(() => {
    if (render) return;
    let live = true;
    // A failed load leaves the text as written, which is still all of it.
    loadMarkdown().then((r) => live && setRender(() => r), () => undefined);
    return () => {
      live = false;
    };
  }, [render]);
  return render;
}

/** `text` as markdown (a `div.markdown`), or as written in a `pre` while the renderer loads. */
export function MarkdownText({ text }: { text: string }) {
  const render = useRenderer();
  const shown = useMemo(() => (render ? render(text) : undefined), [render, text]);
  return shown ?? <pre className="markdown-pending">{text}</pre>;
}
