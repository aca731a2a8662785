// What every state of the side panel must pass, checked in the page itself: it fits its width
// (no horizontal scrolling), it shows no literal backtick and no character that needs an emoji or
// symbol font, and every command in a <code> box wraps only at its spaces and stays inside the panel.
import type { Page } from 'puppeteer-core';

export interface PanelLayout {
  scrollWidth: number;
  clientWidth: number;
  /** Elements whose right edge passes the viewport, for the failure message. */
  wide: string[];
}

export function panelLayout(panel: Page): Promise<PanelLayout> {
  return panel.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}: ${(e.textContent ?? '').slice(0, 60)}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  });
}

/**
 * Text a person sees (and the names, titles and placeholders the panel gives): literal backticks,
 * and characters outside Latin and common punctuation (check marks, arrows, emoji), which a system
 * without an emoji or symbol font draws as empty boxes. Returns the offending snippets.
 */
export function unreadableText(panel: Page): Promise<string[]> {
  // No named functions inside: the test runner's transpiler would wrap them in a helper the page lacks.
  return panel.evaluate(() => {
    const seen: [string, string | null][] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent && parent.closest('[hidden]') === null && parent.tagName !== 'SCRIPT')
        seen.push([`text of ${parent.tagName}#${parent.id}`, n.textContent]);
    }
    for (const e of document.querySelectorAll<HTMLElement>('body *')) {
      for (const a of ['title', 'placeholder', 'aria-label']) seen.push([`${a} of ${e.tagName}#${e.id}`, e.getAttribute(a)]);
      for (const pseudo of ['::before', '::after']) {
        const c = getComputedStyle(e, pseudo).content;
        if (c && c !== 'none' && c !== 'normal') seen.push([`${pseudo} of ${e.tagName}#${e.id}`, c]);
      }
    }
    const bad: string[] = [];
    // Latin-1, Latin Extended-A/B and General Punctuation (… · – ’) are in every text font.
    const outside = /[^\t\n\r\u0020-\u024F\u2000-\u206F]/u;
    for (const [where, t] of seen) {
      if (!t) continue;
      if (t.includes('`')) bad.push(`backtick in ${where}: ${t.slice(0, 120)}`);
      const m = outside.exec(t);
      if (m) bad.push(`U+${m[0].codePointAt(0)?.toString(16).toUpperCase()} in ${where}: ${t.slice(0, 120)}`);
    }
    return bad;
  });
}

/** Every visible <code>: where it breaks a line other than at a space, or where it passes the panel's edge. */
export function brokenCommands(panel: Page): Promise<string[]> {
  return panel.evaluate(() => {
    const bad: string[] = [];
    const width = (document.scrollingElement as HTMLElement).clientWidth;
    for (const code of document.querySelectorAll<HTMLElement>('code')) {
      if (code.getClientRects().length === 0) continue;
      const r = code.getBoundingClientRect();
      if (r.right > width + 0.5) bad.push(`"${code.textContent}" passes the panel's right edge (${r.right} > ${width})`);
      // Every character of the code, across the word runs it is made of, with its line's top.
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n as Text;
        for (let i = 0; i < t.data.length; i++) {
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          // A space collapsed at a line end has no box: it still marks where the line may break.
          const rect = range.getClientRects()[0];
          chars.push({ ch: t.data[i] ?? '', top: rect ? rect.top : (chars[chars.length - 1]?.top ?? 0) });
        }
      }
      const s = chars.map((c) => c.ch).join('');
      for (let i = 1; i < chars.length; i++) {
        // A new line starts at character i: only allowed right after a space.
        if (chars[i]!.top > chars[i - 1]!.top + 2 && chars[i - 1]!.ch !== ' ' && chars[i]!.ch !== ' ')
          bad.push(`"${s}" breaks mid-word before "${s.slice(i, i + 12)}"`);
      }
    }
    return bad;
  });
}
