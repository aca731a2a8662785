// extract_content, page side: this document's readable text as markdown-ish lines (what browser_use
// gets from markdownify(page.content())): headings as #, list items as -, table cells joined by |,
// links as [text](url) unless include_links is false; hidden elements, scripts and styles skipped.
// Each frame answers for itself; background/extract.ts gathers every frame of the tab and appends
// subframes as "IFRAME <url>:" blocks like browser_use.
import type { ExtractContentParams } from '../../../../schemas/generated/protocol';
import { ok } from './common';
import type { PageHandler } from './registry';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'head', 'iframe', 'frame', 'object', 'select', 'option', 'button', 'input', 'textarea', 'img', 'video', 'audio', 'picture']);
const BLOCK = new Set(['p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'form', 'fieldset', 'ul', 'ol', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'blockquote', 'pre', 'figure', 'figcaption', 'address', 'details', 'summary', 'hr', 'body', 'label', 'legend']);

export interface FrameText {
  url: string;
  text: string;
}

export function extractFrameText(includeLinks = true): FrameText {
  const out: string[] = [];
  const push = (s: string) => out.push(s);
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      const t = (node.textContent ?? '').replace(/\s+/g, ' ');
      if (t.trim()) push(t);
      else if (t) push(' ');
      return;
    }
    if (!(node instanceof Element)) return;
    const tag = node.localName;
    if (SKIP.has(tag)) return;
    if (!node.checkVisibility({ checkVisibilityCSS: true })) return;
    const kids = () => {
      for (const c of node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes) walk(c);
    };
    const h = /^h([1-6])$/.exec(tag);
    if (h) {
      push(`\n\n${'#'.repeat(Number(h[1]))} `);
      kids();
      push('\n\n');
      return;
    }
    switch (tag) {
      case 'br':
        push('\n');
        return;
      case 'li':
        push('\n- ');
        kids();
        return;
      case 'tr':
        push('\n| ');
        kids();
        return;
      case 'td':
      case 'th':
        kids();
        push(' | ');
        return;
      case 'a': {
        const href = (node as HTMLAnchorElement).href;
        if (includeLinks && href && !href.startsWith('javascript:')) {
          const start = out.length;
          kids();
          const text = out.splice(start).join('').replace(/\s+/g, ' ').trim();
          if (text) push(`[${text}](${href})`);
          return;
        }
        kids();
        return;
      }
      case 'strong':
      case 'b': {
        const start = out.length;
        kids();
        const text = out.splice(start).join('').trim();
        if (text) push(` **${text}** `);
        return;
      }
    }
    const block = BLOCK.has(tag);
    if (block) push('\n\n');
    kids();
    if (block) push('\n\n');
  };
  if (document.body) walk(document.body);
  const text = out
    .join('')
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const title = document.title ? `# ${document.title}\n\n` : '';
  return { url: location.href, text: window === window.top ? title + text : text };
}

declare global {
  // Called by background/extract.ts through chrome.scripting.executeScript in every frame (the
  // isolated world is shared with this content script).
  var __buxExtractFrame: ((includeLinks: boolean) => FrameText) | undefined;
}
globalThis.__buxExtractFrame = extractFrameText;

const DEFAULT_MAX = 100_000;

/** The top frame alone; the worker uses background/extract.ts to add the iframes. */
export const extractContent: PageHandler = (_ctx, raw) => {
  const p = raw as ExtractContentParams;
  const max = p.max_chars ?? DEFAULT_MAX;
  const { text } = extractFrameText(p.include_links !== false);
  const truncated = text.length > max;
  const out = truncated ? text.slice(0, max) : text;
  return ok(`📄  Extracted from page\n: ${out}\n`, { text: out, frames: 1, truncated }, false);
};
