// extract_content, page side: this document's readable text as markdown-ish lines (what browser_use
// gets from markdownify(page.content())): headings as #, list items as -, table cells joined by |,
// links as [text](url) unless include_links is false; hidden elements, scripts and styles skipped.
// Each frame answers for itself; background/actions/extract_content.ts gathers every frame of the tab and appends
// subframes as "IFRAME <url>:" blocks like browser_use.
import type { ExtractContentParams } from '../../../../schemas/generated/protocol';
import { maskSecretFields, readableTextNode, redactCardNumbers } from '../snapshot/privacy';
import { ok } from './common';
import type { PageHandler } from './types';

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'head',
  'iframe',
  'frame',
  'object',
  'select',
  'option',
  'button',
  'input',
  'textarea',
  'img',
  'video',
  'audio',
  'picture',
]);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'form',
  'fieldset',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'body',
  'label',
  'legend',
]);

export interface FrameText {
  url: string;
  text: string;
}

/**
 * This document's text. inlineFrames: also render same-origin iframes in place (the single-frame
 * path; cross-origin ones need background/actions/extract_content.ts, which asks every frame and passes false).
 */
export function extractFrameText(includeLinks = true, inlineFrames = false): FrameText {
  const out: string[] = [];
  const push = (s: string) => out.push(s);
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      // Each part of a card number masked, also of one split over inline elements or across a shadow
      // boundary (no line below holds such a number whole); a node of an inlined frame is that frame's.
      const raw = node.ownerDocument === document ? readableTextNode(node as Text) : (node.textContent ?? '');
      const t = raw.replace(/\s+/g, ' ');
      if (t.trim()) push(t);
      else if (t) push(' ');
      return;
    }
    // nodeType, not instanceof: nodes of an inlined iframe belong to another realm.
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    const tag = el.localName;
    if (inlineFrames && tag === 'iframe') {
      let doc: Document | null = null;
      try {
        doc = (el as HTMLIFrameElement).contentDocument;
      } catch {
        doc = null; // cross-origin
      }
      if (doc?.body && el.checkVisibility()) {
        const start = out.length;
        walk(doc.body);
        const inner = out.splice(start).join('').trim();
        if (inner) push(`\n\nIFRAME ${doc.location.href}:\n${inner}\n\n`);
      }
      return;
    }
    if (SKIP.has(tag)) return;
    if (!el.checkVisibility({ checkVisibilityCSS: true })) return;
    const kids = () => {
      for (const c of el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes) walk(c);
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
        const href = (el as HTMLAnchorElement).href;
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
  // Inputs are skipped above; card numbers printed as text are masked (privacy.ts).
  return { url: location.href, text: redactCardNumbers(window === window.top ? title + text : text) };
}

declare global {
  // Called by background/actions/extract_content.ts through chrome.scripting.executeScript in every frame (the
  // isolated world is shared with this content script).
  var __buxExtractFrame: ((includeLinks: boolean) => FrameText) | undefined;
  var __buxMaskSecrets: ((on: boolean) => number) | undefined;
}
globalThis.__buxExtractFrame = extractFrameText;
// Called by background/actions/screenshot.ts around a capture (privacy.ts maskSecretFields).
globalThis.__buxMaskSecrets = maskSecretFields;

const DEFAULT_MAX = 100_000;

/** The frame with its same-origin iframes; background/actions/extract_content.ts also reaches cross-origin ones. */
export const extractContent: PageHandler = (_ctx, raw) => {
  const p = raw as ExtractContentParams;
  const max = p.max_chars ?? DEFAULT_MAX;
  const { text } = extractFrameText(p.include_links !== false, true);
  const truncated = text.length > max;
  const out = truncated ? text.slice(0, max) : text;
  return ok(`📄  Extracted from page\n: ${out}\n`, { text: out, frames: 1, truncated }, false);
};
