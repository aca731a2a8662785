// Why: an agent asks for the state after every action, and between two asks most pages have not
// changed at all; a walk of a large page costs tens of milliseconds of computed styles, names and
// boxes. This says whether anything the last walk read may have changed since it ran, so the walk's
// answer can be given again (walk-cache.ts). Correctness first: every source that can change what
// the walk reads marks the page changed, and any doubt counts as a change:
//   - the DOM: a MutationObserver (childList, attributes, characterData, subtree) on the document and
//     on every shadow root the walk met (a mutation inside a shadow tree is not seen from outside);
//     our own UI coming and going is not a change of the page (settle.ts isAgentUiRecord), nor are
//     events aimed at it;
//   - what no observer or event reports (CSSOM edits, values set from script, element scrolls,
//     animate(), attachShadow, custom element upgrades and states, popovers, fonts added): the
//     main-world wrappers (main-world/unseen-changes.ts); without them linked nothing is kept;
//   - events: input (pointer, keys, wheel, touch: :hover, :active, :focus, scrolling), focus,
//     form input, scroll (also inside shadow trees, where scroll, load and change do not leave the
//     root), load/error (images, sheets, frames: sizes and rules arrive), media size, animation and
//     transition start/end, popover and details toggles, fullscreen, hash and history moves,
//     printing, media queries that sheets may test, font loads;
//   - checked directly at each ask (events of the rendering steps do not run in a hidden tab): the
//     window's scroll, size and zoom, the URL, the focused element, the document's sheets, running
//     animations (document.getAnimations() does not include shadow trees': each root is asked),
//     fonts still loading, images still loading whose box waits for their size.
// https://dom.spec.whatwg.org/#interface-mutationobserver, https://drafts.csswg.org/web-animations-1/#dom-documentorshadowroot-getanimations
import { isAgentUi } from '../../shared/agent-ui-marker';
import { isAgentUiRecord } from '../settle';
import { armUnseenWatch, unseenChangeCount } from '../unseen-watch';
import { externalSheetsVersion } from './external-sheets';
import { deepActiveElement } from './walk';

const OPTIONS: MutationObserverInit = { childList: true, attributes: true, characterData: true, subtree: true };
/** Events that do not leave a shadow root (not composed), listened to on each root too. */
const ROOT_EVENTS = [
  'scroll',
  'scrollend',
  'load',
  'error',
  'loadedmetadata',
  'resize',
  'change',
  'toggle',
  'animationstart',
  'animationend',
  'animationcancel',
  'transitionrun',
  'transitionend',
  'transitioncancel',
];
const WINDOW_EVENTS = [
  ...ROOT_EVENTS,
  'mouseover',
  'mouseout',
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'keydown',
  'keyup',
  'wheel',
  'touchstart',
  'touchend',
  'focusin',
  'focusout',
  // The window's own focus and blur (capture also sees every element's): :focus follows the window's focus.
  'focus',
  'blur',
  'input',
  'compositionend',
  'drop',
  'dragend',
  'hashchange',
  'popstate',
  'pageshow',
  'fullscreenchange',
  'beforeprint',
  'afterprint',
];
/** Media features a sheet may test that change without a resize. */
const MEDIA = [
  '(prefers-color-scheme: dark)',
  '(prefers-reduced-motion: reduce)',
  '(prefers-contrast: more)',
  '(forced-colors: active)',
  '(prefers-reduced-transparency: reduce)',
  '(inverted-colors: inverted)',
  'print',
  '(hover: hover)',
  '(any-hover: hover)',
  '(pointer: fine)',
  '(any-pointer: coarse)',
];

/** What is compared directly at each ask. */
interface Seen {
  unseen: number;
  url: string;
  root: Element | null;
  width: number;
  height: number;
  dpr: number;
  x: number;
  y: number;
  focused: Element | null;
  sheets: number;
  /** The rules every readable sheet holds (see ruleCounts). */
  rules: string;
  /**
   * The cross-origin sheets' answers the worker fetched (external-sheets.ts): one that arrives after
   * a walk adds rules (::before content, imports to fetch next) that walk could not read.
   */
  external: number;
  adopted: readonly CSSStyleSheet[];
  rootSheets: number[];
  /** Which of MEDIA match (a DevTools client can emulate them without a change event in a hidden tab). */
  media: string;
}

export class PageChanges {
  private changed = true;
  private observer: MutationObserver | null = null;
  private observed = new WeakSet<ShadowRoot>();
  /** Every root listened to (observed alone cannot be walked), to remove the listeners in stop(). */
  private listened: ShadowRoot[] = [];
  /** The shadow roots the last walk met (their sheets and animations are checked at each ask). */
  private roots: ShadowRoot[] = [];
  private seen: Seen | null = null;
  private readonly queries: MediaQueryList[] = [];
  /** An event: a change unless it is our own UI's (the agent bar shown as a popover toggles, the pointer enters it). */
  private readonly mark = (e?: Event): void => {
    const target = e?.target;
    if (target instanceof Element && isAgentUi(target)) return;
    this.changed = true;
  };

  /** Something changed (an action of ours ran: whatever it did, the next ask walks again). */
  invalidate(): void {
    this.changed = true;
  }

  /** The walk met this shadow root: changes inside it count from now on. */
  addRoot(sr: ShadowRoot): void {
    if (this.observed.has(sr)) return;
    this.observed.add(sr);
    this.start().observe(sr, OPTIONS);
    for (const t of ROOT_EVENTS) sr.addEventListener(t, this.mark, { capture: true, passive: true });
    this.listened.push(sr);
  }

  /** Stops watching (the agent's hold of the tab ended): no observer, no listener left; the next walk counts as after a change. */
  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
    for (const sr of this.listened) for (const t of ROOT_EVENTS) sr.removeEventListener(t, this.mark, { capture: true });
    this.listened = [];
    this.observed = new WeakSet();
    for (const t of WINDOW_EVENTS) window.removeEventListener(t, this.mark, { capture: true });
    for (const q of this.queries.splice(0)) q.removeEventListener('change', this.mark);
    document.fonts?.removeEventListener('loading', this.mark);
    document.fonts?.removeEventListener('loadingdone', this.mark);
    this.roots = [];
    this.changed = true;
    this.seen = null;
  }

  /**
   * A walk has just read the page (synchronously: no page script ran during it). roots: the shadow
   * roots it met; afterChange: the page changed since the walk before (answers kept before are no
   * longer given). From here on, whatChanged() answers whether the page may differ from what it read.
   */
  walked(roots: ShadowRoot[], afterChange: boolean): void {
    this.start();
    for (const sr of roots) this.addRoot(sr);
    // Answers kept from walks since the last change stay valid: the roots any of them met stay checked.
    if (afterChange) this.roots = [...new Set(roots)];
    else this.roots = [...new Set([...this.roots, ...roots])];
    // Records of changes made before or during the walk are already in what it read.
    this.observer?.takeRecords();
    armUnseenWatch();
    const unseen = unseenChangeCount();
    if (unseen === null || this.running() !== null) {
      this.changed = true;
      this.seen = null;
    } else {
      this.changed = false;
      this.seen = { ...this.now(), unseen };
    }
  }

  /**
   * May the page still be exactly as the last walk read it? Cheap: no style or layout work beyond
   * what the checks need. Returns null when it may, else what changed (for the bench and tests).
   */
  whatChanged(): string | null {
    if (this.changed || this.seen === null) return this.seen === null ? 'not kept' : 'event or mutation';
    const records = this.observer?.takeRecords() ?? [];
    if (records.length > 0 && !records.every(isAgentUiRecord)) return this.no('mutation');
    const s = this.seen;
    if (unseenChangeCount() !== s.unseen) return this.no('unseen change');
    const n = this.now();
    for (const k of ['url', 'root', 'width', 'height', 'dpr', 'x', 'y', 'focused', 'sheets', 'rules', 'external', 'media'] as const)
      if (n[k] !== s[k]) return this.no(k);
    if (n.adopted.length !== s.adopted.length || n.adopted.some((x, i) => x !== s.adopted[i])) return this.no('adopted sheets');
    if (n.rootSheets.length !== s.rootSheets.length || n.rootSheets.some((x, i) => x !== s.rootSheets[i])) return this.no('shadow sheets');
    const running = this.running();
    return running ? this.no(running) : null;
  }

  private no(why: string): string {
    this.changed = true;
    return why;
  }

  /** Starts watching the document (once per document: listeners dropped by document.open() are added again). */
  private start(): MutationObserver {
    const fresh = this.observer === null;
    this.observer ??= new MutationObserver((records) => {
      if (!records.every(isAgentUiRecord)) this.changed = true;
    });
    if (fresh) {
      this.observer.observe(document, OPTIONS);
      for (const q of MEDIA) {
        const mql = matchMedia(q);
        mql.addEventListener('change', this.mark);
        this.queries.push(mql);
      }
      document.fonts?.addEventListener('loading', this.mark);
      document.fonts?.addEventListener('loadingdone', this.mark);
    }
    // Adding the same listener again is a no-op; after document.open() it restores them.
    for (const t of WINDOW_EVENTS) window.addEventListener(t, this.mark, { capture: true, passive: true });
    return this.observer;
  }

  private now(): Omit<Seen, 'unseen'> {
    const sheets = sheetCounts(document, this.roots);
    return {
      url: location.href,
      root: document.documentElement,
      width: window.innerWidth,
      height: window.innerHeight,
      dpr: window.devicePixelRatio,
      x: window.scrollX,
      y: window.scrollY,
      focused: deepActiveElement(),
      sheets: document.styleSheets.length,
      rules: sheets.rules,
      external: externalSheetsVersion(),
      adopted: [...(document.adoptedStyleSheets ?? [])],
      rootSheets: sheets.rootSheets,
      media: this.queries.map((q) => (q.matches ? '1' : '0')).join(''),
    };
  }

  /** Something that changes with time alone: a running animation or transition, fonts loading, an image whose box waits for its size. */
  private running(): string | null {
    if (document.getAnimations().length > 0) return 'animation';
    for (const r of this.roots) if (r.getAnimations().length > 0) return 'animation in a shadow tree';
    if (document.fonts && document.fonts.status !== 'loaded') return 'fonts loading';
    const images = document.images;
    for (let i = 0; i < images.length; i++) {
      const img = images[i] as HTMLImageElement;
      // An image with both sizes given keeps its box while it loads (and may never load: loading=lazy).
      if (!img.complete && !(img.hasAttribute('width') && img.hasAttribute('height'))) return 'image loading';
    }
    return null;
  }
}

/**
 * rules: each readable sheet's rule count, the document's and adopted ones and every walked shadow
 * root's. The wrappers that report CSSOM edits arrive when an agent takes the tab, after the page's
 * scripts: a script that kept `insertRule` (or a sheet's `replaceSync`) before then edits rules no
 * wrapper sees, and a rule added or removed changes a count. Cheap: a page has tens of sheets, and a
 * count needs no style work. A sheet from another origin cannot be read (its rules come with its
 * load event). rootSheets: each walked shadow root's sheet and adopted sheet counts.
 * Each root's two lists are read once for both: adoptedStyleSheets gives a new array at every read,
 * and on a page of web components (bench/pages.ts wc-todo: 2,424 shadow roots) reading both lists
 * twice per root cost every kept answer ~13 ms, once ~3 ms (measured in the page, load 14).
 */
function sheetCounts(doc: Document, roots: readonly ShadowRoot[]): { rules: string; rootSheets: number[] } {
  const out: number[] = [];
  const count = (sheet: CSSStyleSheet): void => {
    try {
      out[out.length] = sheet.cssRules.length;
    } catch {
      out[out.length] = -1;
    }
  };
  const one = (root: Document | ShadowRoot): number => {
    const list = root.styleSheets;
    const adopted = root.adoptedStyleSheets ?? [];
    for (const sheet of list) count(sheet);
    for (const sheet of adopted) count(sheet);
    return list.length * 65536 + adopted.length;
  };
  one(doc);
  const rootSheets = roots.map(one);
  return { rules: out.join(','), rootSheets };
}
