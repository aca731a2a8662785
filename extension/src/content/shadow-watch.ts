// Whether a closed shadow root may have been attached since a given moment. The main-world hooks
// (main-world/hooks.ts) wrap Element.prototype.attachShadow and report each closed root as it is
// attached, synchronously, through the private page link (early.ts receives it). Reaching a closed
// root takes a chrome.dom binding call of a few microseconds per element, asked of every div and
// span a walk meets (a menu-heavy page: ~8 ms of each state); an element found without one keeps
// that answer until the next closed root is reported (shadow-root.ts). A root can only be added by
// attachShadow, or by the parser when it creates the element (declarative shadow DOM): answers are
// kept only once the document is parsed, and only while the hooks are linked. Not seen: a root
// attached through another frame's attachShadow (a same-origin frame's Element.prototype called on
// an element of this document) is reported to that frame's content script; the host is found again
// once any closed root is attached here.
import type { MainToIsolated } from '../shared/page-link';

declare global {
  interface Window {
    /** Set by early.ts (document_start), read by content.js: both run in this isolated world. */
    __browserUseExtShadowWatch?: ShadowWatch;
  }
}

interface ShadowWatch {
  linked: boolean;
  closed: number;
  /**
   * content.js (snapshot/card-push.ts): called as each closed root, and each open root of an element
   * already in the document, is attached, inside attachShadow.
   */
  onAttached?: () => void;
}

function watch(): ShadowWatch {
  return (window.__browserUseExtShadowWatch ??= { linked: false, closed: 0 });
}

/** early.ts: takes the hooks' shadow messages; false for any other message. */
export function noteShadowMessage(m: MainToIsolated): boolean {
  if (m.t === 'shadow_watch') watch().linked = true;
  else if (m.t === 'closed_shadow' || m.t === 'open_shadow') {
    const w = watch();
    // Only a closed root changes what shadowRootOf may have answered (an open one is el.shadowRoot).
    if (m.t === 'closed_shadow') w.closed++;
    try {
      w.onAttached?.();
    } catch {
      // a listener's failure must not stop the page link
    }
  } else return false;
  return true;
}

/** The watch once early.ts made it (one object per isolated world, changed in place). */
let watched: ShadowWatch | undefined;
/** The parser is done with this document (readyState never goes back to "loading"). */
let parsed = false;

/**
 * A number that changes whenever a closed shadow root is attached, or null when that would not be
 * seen (the hooks are not linked, or the parser may still attach declarative roots). Called for
 * every element that can host a root: two cached reads once the page is parsed.
 */
export function closedShadowEpoch(): number | null {
  watched ??= window.__browserUseExtShadowWatch;
  if (!watched?.linked) return null;
  if (!parsed) {
    if (document.readyState === 'loading') return null;
    parsed = true;
  }
  return watched.closed;
}

/** The main-world hooks are linked to this isolated world (their reports arrive). */
export function mainHooksLinked(): boolean {
  watched ??= window.__browserUseExtShadowWatch;
  return watched?.linked === true;
}

/**
 * content.js: `fn` is called each time the page attaches a closed shadow root, or an open one to an
 * element already in the document, synchronously inside the page's attachShadow (the root is still
 * empty; its host unknown). One listener per isolated world.
 */
export function onShadowAttached(fn: () => void): void {
  watch().onAttached = fn;
}
