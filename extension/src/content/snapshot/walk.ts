// The snapshot walk: ONE depth-first pass over this document (shadow roots included, open and
// closed; iframes recorded as placeholders the worker fills), in browser_use's order (shadow
// children before light children). Per element it reads the computed style once and the bounding
// rect at most once, only where something needs it; everything else (accessible name, hit test,
// attributes, xpath) is computed only for the elements that end up listed. Subtrees that are hidden
// (display:none, inert, closed <details>, our own UI: shared/agent-ui-marker.ts) are never entered,
// and in viewport scope the rows/blocks and the shadow hosts (./host-prune) that lie wholly outside
// the expanded viewport are skipped with their subtree.
import type { ActionableElement, DomNode, GetStateParams, Redaction, TextItem } from '../../../../schemas/generated/protocol';
import { DEFAULT_INCLUDE_ATTRIBUTES } from '../../../../schemas/lib/render/browser-use';
import { isAgentUiRoot } from '../../shared/agent-ui-marker';
import { CARD_MIN_DIGITS } from '../../shared/card-shape';
import type { FrameChild, FrameElement, FrameSnapshot, FrameText } from '../../shared/frame-snapshot';
import { buildBrowserUseTree } from '../browser-use-tree/build';
import { rememberHighlights } from '../browser-use-tree/highlight';
import { contentBoxIfEmpty } from '../interaction/dom';
import { topElementAt } from '../interaction/hit-test';
import type { RefRegistry } from '../refs';
import { shadowRootOf } from '../shadow-root';
import { countsAsSibling, segment } from '../xpath';
import { accessibleName, LabelIndex } from './accname';
import { elementType, focusableWithoutBox, isInteractiveByMarkup, operationsFor, statesOf } from './classify';
import { HiddenSubtrees } from './hidden-prune';
import { HostPruner } from './host-prune';
import { digitCount, maskPii, type PrivacyOptions, redactedMarker, type SensitiveReason, sensitiveReason, splitCardParts } from './privacy';
import { roleOf } from './roles';
import { svgLinks, svgLinkText } from './svg-links';

/** Key of the postMessage a parent frame sends its iframes during a snapshot. */
export const FRAME_TOKEN_KEY = '__browser_use_ext_frame_token';

/**
 * Each iframe element's token, the same in every walk of this document: the child document keeps
 * the last token its parent posted and sends it with its own snapshot (parent_token), so from the
 * second state on the worker matches a child frame to its iframe from the snapshot it already has,
 * without asking each child frame again after the parent's walk (a round trip per nesting level).
 * A child document only ever holds tokens of its own iframe element (a browsing context stays in
 * its element; a new document starts without one), so a stable token names the same iframe.
 */
const frameTokens = new WeakMap<Element, string>();
function frameTokenOf(el: Element): string {
  let t = frameTokens.get(el);
  if (t === undefined) {
    t = crypto.randomUUID();
    frameTokens.set(el, t);
  }
  return t;
}

export const DEFAULTS = { viewport_expansion: 0, max_elements: 1500, max_text_chars: 30000 } as const;

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'svg', 'math', 'object', 'embed']);
/** Attributes an agent needs to identify an element: browser_use's include_attributes plus id, href, autocomplete. */
const SHOWN = new Set([...DEFAULT_INCLUDE_ATTRIBUTES, 'id', 'href', 'autocomplete']);
/** Block-level containers whose children cannot normally escape their box: skipped whole when outside the scope. */
const PRUNABLE = new Set([
  'tr',
  'li',
  'p',
  'td',
  'th',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'option',
  'label',
  'thead',
  'tfoot',
]);
const BLOCK_ROLE: Record<string, TextItem['role'] | null> = {
  p: 'paragraph',
  li: 'listitem',
  caption: 'caption',
  label: 'label',
  legend: 'legend',
  pre: 'code',
  blockquote: 'blockquote',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  div: null,
  section: null,
  article: null,
  main: null,
  header: null,
  footer: null,
  nav: null,
  aside: null,
  form: null,
  fieldset: null,
  table: null,
  tr: 'row',
  tbody: null,
  thead: null,
  tfoot: null,
  ul: null,
  ol: null,
  dl: null,
  dt: null,
  dd: null,
  body: null,
  html: null,
  figure: null,
  figcaption: 'caption',
  details: null,
  summary: null,
  dialog: null,
  address: null,
  center: null,
  hr: null,
  br: null,
};
const CURSOR_INTERACTIVE = 'pointer';
/** Whitespace that /\s+/ -> ' ' changes: any but a space, or two spaces in a row. */
const NOT_A_SINGLE_SPACE = /[^\S ]| {2}/;
const NO_VALUE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image']);

function hasAriaAttribute(names: string[]): boolean {
  for (let i = 0; i < names.length; i++) if ((names[i] as string).startsWith('aria-')) return true;
  return false;
}

/** Has o a key of its own (Object.keys(o).length > 0 without the array)? */
function hasOwnKey(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/**
 * The value a listed control shows (inputs with a value, textarea, select), or null. tag: t.localName (checked first: cheaper than
 * instanceof).
 */
function valueOf(t: Element, tag: string): string | null {
  if (tag === 'input' && t instanceof HTMLInputElement) return NO_VALUE_INPUTS.has(t.type) ? null : t.value;
  if ((tag === 'textarea' && t instanceof HTMLTextAreaElement) || (tag === 'select' && t instanceof HTMLSelectElement)) return t.value;
  return null;
}
/** xpath segments: up to this many element siblings are counted per ask; more are indexed once per parent. */
const SCAN_SIBLINGS = 6;
/** visitElement's answer for our own UI: not listed, and not counted among its siblings. */
const NOT_A_SIBLING = 1;

interface Parent {
  /** Position in `elements` of the nearest listed ancestor. */
  listed: number | undefined;
  pointer: boolean;
  inShadow: boolean;
  block: Element | null;
  blockRole: TextItem['role'] | null;
  level: number | undefined;
  /** The parent element (its box is read on demand, for its text children). */
  parentEl: Element | null;
  /** Nearest table cell: cells of one row share the row's text item, separated by " | ". */
  cell: Element | null;
  /** The parent's visibility:visible. */
  cssVisible: boolean;
  /** The parent is display:contents (no box of its own). */
  contents: boolean;
  /** The parent's box when read (whole page: candidates only). */
  rect: DOMRect | null;
  /** Viewport scope: the box is not read yet; the first text child that needs it reads it. */
  rectPending: boolean;
  /**
   * xpath bookkeeping of parentEl: the record of its own parent, its 1-based position among same-tag siblings (0: not counted), whether it
   * is a shadow root's child, its xpath once built.
   */
  up: Parent | null;
  ordinal: number;
  top: boolean;
  xpath: string | undefined;
}

interface Scope {
  /** Whole page (-1) or not. */
  all: boolean;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface WalkMemory {
  /** Elements listed by the previous snapshot of this document (for is_new); null before the first. */
  previous: WeakSet<Element> | null;
}

/** The focused element of this document, through open and closed shadow roots. */
export function deepActiveElement(doc: Document = document): Element | null {
  let a: Element | null = doc.activeElement;
  for (;;) {
    if (!a) return null;
    const sr = shadowRootOf(a);
    const inner = sr?.activeElement ?? null;
    if (!inner || inner === a) return a;
    a = inner;
  }
}

/** Is the element rendered: connected, non-zero size, not hidden by CSS (display, visibility, content-visibility, closed details)? */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
}

/**
 * A control styled away (opacity 0, 1px box, clipped) and operated through its label instead.
 * box = el.getBoundingClientRect(); el is connected (the walk reached it or its label). Same answer
 * as "not isVisible(el), or a box of 1px or less, or hidden by opacity/visibility", with one box
 * and one checkVisibility (a box of 0 is also one of 1px or less; hidden by visibility fails both).
 */
function visuallyHidden(el: Element, box: DOMRect): boolean {
  if (box.width <= 1 || box.height <= 1) return true;
  return !el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
}

/** Is el on top at (x, y) (content/interaction/hit-test.ts, as seen from el's own tree)? */
function hitTarget(el: Element, x: number, y: number): boolean {
  const root = el.getRootNode() as Document | ShadowRoot;
  let hit: Element | null;
  try {
    hit = topElementAt(root, x, y);
  } catch {
    return true;
  }
  if (!hit) return false;
  // Inside el, in the flat tree (the hit may be inside el's own shadow root).
  for (let n: Node | null = hit; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n === el) return true;
  }
  // A <label> over its control counts as the control being reachable (the label forwards the click).
  return hit instanceof HTMLLabelElement && hit.control === el;
}

export class Walker {
  readonly elements: FrameElement[] = [];
  readonly texts: FrameText[] = [];
  readonly frames: FrameChild[] = [];
  /** The iframe element of each entry of `frames` (the dom_tree hook maps its iframes to them). */
  private readonly frameEls: Element[] = [];
  private readonly order: string[] = [];
  private readonly listedEls: Element[] = [];
  private readonly textBufs: string[][] = [];
  private textChars = 0;
  private textCut = false;
  private omitted = 0;
  private lastTextBlock: Element | null = null;
  private lastTextCell: Element | null = null;
  private readonly scope: Scope;
  private readonly vp: Scope;
  private readonly vw = window.innerWidth;
  private readonly vh = window.innerHeight;
  private readonly maxElements: number;
  private readonly maxText: number;
  private readonly privacy: PrivacyOptions;
  private readonly focused: Element | null;
  private readonly listedNow = new WeakSet<Element>();
  private readonly labels = new LabelIndex();
  private readonly hosts = new HostPruner();
  private readonly hidden = new HiddenSubtrees();
  /** Every shadow root this walk met, entered or not (page-changes.ts watches them). */
  readonly rootsMet: ShadowRoot[] = this.hosts.met;
  /** Labels listed because they operate a hidden control: the control itself is not listed again. */
  private readonly operatedByLabel = new WeakSet<Element>();

  constructor(
    private readonly refs: RefRegistry,
    private readonly memory: WalkMemory,
    private readonly params: GetStateParams,
    /** The top window's viewport, for a child frame's dom_tree (browser_use measures iframe contents against it). */
    private readonly topViewport?: { width: number; height: number },
  ) {
    const exp = params.viewport_expansion ?? DEFAULTS.viewport_expansion;
    this.scope =
      exp === -1
        ? { all: true, left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity }
        : { all: false, left: -exp, top: -exp, right: this.vw + exp, bottom: this.vh + exp };
    const e0 = Math.max(exp, 0);
    this.vp = { all: false, left: -e0, top: -e0, right: this.vw + e0, bottom: this.vh + e0 };
    this.maxElements = params.max_elements ?? DEFAULTS.max_elements;
    this.maxText = params.max_text_chars ?? DEFAULTS.max_text_chars;
    this.privacy = { redactPii: params.redact_pii === true, redactCardAndOtp: params.redact_card_and_otp !== false };
    this.focused = deepActiveElement();
  }

  /** The listed elements, in the order of `elements`. */
  get listedElements(): readonly Element[] {
    return this.listedEls;
  }

  /** The iframe element of each entry of `frames`. */
  get frameElements(): readonly Element[] {
    return this.frameEls;
  }

  run(isTop: boolean): FrameSnapshot {
    const start = performance.now();
    const doc = document;
    const base: Parent = {
      listed: undefined,
      pointer: false,
      inShadow: false,
      block: null,
      blockRole: null,
      level: undefined,
      parentEl: null,
      cell: null,
      cssVisible: true,
      contents: false,
      rect: null,
      rectPending: false,
      up: null,
      ordinal: 0,
      top: false,
      xpath: undefined,
    };
    const root = isTop ? doc.body : doc.documentElement;
    if (root) this.visitElement(root, root.localName, 0, base, false);
    const tree = this.params.include_dom_tree === true ? this.browserUseTree(isTop) : undefined;
    for (let i = 0; i < this.elements.length; i++) {
      const buf = this.textBufs[i];
      if (buf === undefined) continue;
      const joined = buf.join(' ');
      const text = (NOT_A_SINGLE_SPACE.test(joined) ? joined.replace(/\s+/g, ' ') : joined).trim();
      const el = this.elements[i] as FrameElement;
      if (text) {
        if (this.privacy.redactPii) {
          const m = maskPii(text);
          el.text_content = m.text.slice(0, 500);
        } else el.text_content = text.slice(0, 500);
      }
    }
    // A card number split across a shadow boundary (part in a root's own text, part in slotted
    // light-DOM text): each tree's text is joined on its own here, so no text holds it whole and the
    // worker's scrub would not see it. Its parts are masked where they show (privacy.ts).
    if (this.privacy.redactCardAndOtp && this.rootsMet.length > 0 && this.textDigits() >= CARD_MIN_DIGITS)
      this.maskSplitCards(splitCardParts(this.rootsMet));
    this.memory.previous = this.listedNow;
    const active = this.focused;
    let focused: FrameSnapshot['focused'] = null;
    if (active && active !== doc.body && active !== doc.documentElement && active.localName !== 'iframe' && active.localName !== 'frame') {
      const pos = this.listedEls.indexOf(active);
      focused = { tag: active.localName, ...(pos >= 0 ? { pos } : {}), name: accessibleName(active) };
    }
    const de = doc.documentElement;
    return {
      url: location.href,
      title: doc.title,
      elements: this.elements,
      texts: this.texts,
      frames: this.frames,
      order: this.order.join(''),
      ...(tree ? { tree } : {}),
      scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
      viewport: { width: this.vw, height: this.vh },
      page_size: {
        width: Math.max(de?.scrollWidth ?? 0, doc.body?.scrollWidth ?? 0),
        height: Math.max(de?.scrollHeight ?? 0, doc.body?.scrollHeight ?? 0),
      },
      focused,
      elements_omitted: this.omitted,
      text_cut: this.textCut,
      walk_ms: Math.round((performance.now() - start) * 10) / 10,
    };
  }

  /** Digits in the texts this walk gives (at least 13 where a card number shows, whole or in parts). */
  private textDigits(): number {
    let n = 0;
    for (const t of this.texts) n += digitCount(t.text);
    for (const e of this.elements) n += digitCount(e.text_content ?? '') + digitCount(e.name ?? '');
    return n;
  }

  /** Every occurrence of these card parts in the page text and the listed elements' names and texts, masked. */
  private maskSplitCards(parts: string[]): void {
    if (parts.length === 0) return;
    const marker = redactedMarker('payment_card');
    const shown = parts.map((part) => part.replace(/\s+/g, ' '));
    const mask = (text: string) => {
      let out = text;
      for (const part of shown) if (out.includes(part)) out = out.split(part).join(marker);
      return out;
    };
    for (const t of this.texts) {
      const m = mask(t.text);
      if (m !== t.text) {
        t.text = m;
        t.redacted = true;
      }
    }
    for (const e of this.elements) {
      if (e.text_content) e.text_content = mask(e.text_content);
      if (e.name) e.name = mask(e.name);
    }
  }

  /**
   * dom_tree as browser_use's buildDomTree.js builds it (content/browser-use-tree), replacing the
   * walk's own tree; its iframe nodes point at this walk's frame placeholders (frame_id -(k+1)).
   */
  private browserUseTree(isTop: boolean): DomNode {
    const built = buildBrowserUseTree(this.refs, {
      flavor: this.params.dom_tree_flavor ?? '0.1.48',
      viewportExpansion: this.params.viewport_expansion ?? DEFAULTS.viewport_expansion,
      viewport: isTop || !this.topViewport ? { width: this.vw, height: this.vh } : this.topViewport,
      isTop,
      highlightElements: this.params.highlight_elements !== false,
      privacy: this.privacy,
    });
    rememberHighlights(built.highlighted);
    const fix = (n: DomNode): void => {
      if (n.kind !== 'element') return;
      if (n.frame_id !== undefined) {
        const iframe = built.iframes[-n.frame_id - 1];
        const k = iframe ? this.frameEls.indexOf(iframe) : -1;
        if (k >= 0 && this.frames[k]?.token) n.frame_id = -(k + 1);
        else delete n.frame_id;
      }
      for (const c of n.children) fix(c);
    };
    fix(built.tree);
    return built.tree;
  }

  private intersects(r: DOMRect, s: Scope): boolean {
    if (s.all) return true;
    return r.right >= s.left && r.left <= s.right && r.bottom >= s.top && r.top <= s.bottom;
  }

  private readonly xpaths = new Map<Element, string>();
  /** Parents with many element children: each child's 1-based position among same-tag siblings, and the count per tag. */
  private readonly ordinals = new Map<Element, { pos: Map<Element, number>; count: Map<string, number> }>();

  // XPaths in browser_use 0.1.48's form (buildDomTree.js getXPathTree): `tag` when the element is
  // the only child of its tag under its parent element, else `tag[n]` with n its 1-based position
  // among same-tag siblings; paths restart at every shadow root and iframe document (no leading
  // slash).

  /** browser_use xpath of any element (the walk's root, and segments it could not count). */
  xpathOf(el: Element): string {
    const known = this.xpaths.get(el);
    if (known !== undefined) return known;
    let out: string;
    if (el.parentNode instanceof ShadowRoot) out = '';
    else {
      const parent = el.parentElement;
      if (!parent) out = segment(el.localName, 1, true);
      else {
        const seg = this.segmentOf(el, parent);
        const px = this.xpathOf(parent);
        out = px ? `${px}/${seg}` : seg;
      }
    }
    this.xpaths.set(el, out);
    return out;
  }

  /**
   * browser_use xpath of a visited element from the walk's records: p is the record of its parent,
   * ordinal its position among same-tag siblings as the walk counted them (0: not counted), top
   * whether it is a shadow root's child. Ancestors' xpaths are kept on their records.
   */
  private xpathAt(el: Element, tag: string, ordinal: number, p: Parent, top: boolean): string {
    if (top) return '';
    const parent = p.parentEl;
    if (parent === null || p.up === null) return this.xpathOf(el);
    let seg: string;
    if (ordinal > 1) seg = segment(tag, ordinal, false);
    else {
      seg = '';
      if (ordinal === 1) {
        // The first of its tag: alone unless a later sibling has the tag.
        let c = el.nextElementSibling;
        for (let seen = 0; c !== null && seen < SCAN_SIBLINGS; c = c.nextElementSibling, seen++) {
          if (c.localName === tag && countsAsSibling(c)) {
            seg = segment(tag, 1, false);
            break;
          }
        }
        if (!seg && c === null) seg = segment(tag, 1, true);
      }
      if (!seg) seg = this.segmentOf(el, parent);
    }
    let px = p.xpath;
    if (px === undefined) px = p.xpath = this.xpathAt(parent, parent.localName, p.ordinal, p.up, p.top);
    return px ? `${px}/${seg}` : seg;
  }

  /** el's xpath segment under parent, from the DOM. */
  private segmentOf(el: Element, parent: Element): string {
    const tag = el.localName;
    let ord = this.ordinals.get(parent);
    if (!ord) {
      // Few siblings: count them (no cache to build). childElementCount would walk all children.
      let pos = 0;
      let count = 0;
      let seen = 0;
      let c = parent.firstElementChild;
      for (; c !== null && seen < SCAN_SIBLINGS; c = c.nextElementSibling, seen++) {
        if (c.localName !== tag || (c !== el && !countsAsSibling(c))) continue;
        count++;
        if (c === el) pos = count;
      }
      if (c === null) return segment(tag, pos, count === 1);
      const position = new Map<Element, number>();
      const counts = new Map<string, number>();
      for (c = parent.firstElementChild; c !== null; c = c.nextElementSibling) {
        if (!countsAsSibling(c)) continue;
        const t = c.localName;
        const k = (counts.get(t) ?? 0) + 1;
        counts.set(t, k);
        position.set(c, k);
      }
      ord = { pos: position, count: counts };
      this.ordinals.set(parent, ord);
    }
    return segment(tag, ord.pos.get(el) ?? 0, ord.count.get(tag) === 1);
  }

  /**
   * Visits one element. Per element: one computed style; the box only where something needs it
   * (viewport scope: prunable blocks, candidates, iframes, and lazily the parent of a text node;
   * whole page: candidates and iframes), read once and reused.
   */
  private visitElement(el: Element, tag: string, ordinal: number, p: Parent, shadowTop: boolean): typeof NOT_A_SIBLING | undefined {
    if (SKIP_TAGS.has(tag)) {
      // An inline <svg> is a drawing, not content; only the links in it are listed (./svg-links).
      if (tag === 'svg') this.visitSvgLinks(el, p, shadowTop);
      return;
    }
    // Most elements have no attributes: one call answers for the five attribute checks below.
    // Our own UI (a host we created, whatever attributes the page left on it) is neither listed nor
    // a sibling in xpaths (content/xpath.ts): the caller uncounts it.
    if (isAgentUiRoot(el)) return NOT_A_SIBLING;
    const attrs = el.hasAttributes();
    if (attrs && el.hasAttribute('inert')) return;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return;
    const all = this.scope.all;
    /** el's border box (getBoundingClientRect), once read. */
    let box: DOMRect | null = null;
    if (!all && PRUNABLE.has(tag)) {
      box = el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && !this.intersects(box, this.scope) && style.position !== 'fixed' && style.position !== 'sticky')
        return;
    }
    const inShadow = p.inShadow || shadowTop;
    const cssVisible = style.visibility === 'visible';
    const pointer = style.cursor === CURSOR_INTERACTIVE;
    // The role matters here only when it is explicit (an interactive ARIA role, role=heading);
    // the implicit role (HTML-AAM: a <td> looks up its table, a <header> its sectioning ancestors)
    // is computed in describe(), for listed elements only. '' = no role attribute.
    const role = attrs && el.getAttribute('role') !== null ? roleOf(el) : '';

    // Is it listed? Never when hidden by visibility (below): the markup and cursor rules are not
    // asked then (a third of a page can sit in visibility:hidden menus, walked only for the
    // descendants that are visible again). A label is still asked about its control: a label
    // operating a hidden control keeps that control from being listed on its own, visible or not.
    let candidate = cssVisible && isInteractiveByMarkup(el, role, tag, attrs);
    if (!candidate && cssVisible && pointer && !p.pointer && tag !== 'label' && tag !== 'body' && tag !== 'html') candidate = true;
    let labelFor: Element | null = null;
    if (tag === 'label') {
      labelFor = this.labelOperates(el as HTMLLabelElement);
      if (labelFor) candidate = true;
    }
    if (candidate && this.operatedByLabel.has(el)) candidate = false;
    if (candidate && tag === 'input') {
      const type = (el as HTMLInputElement).type;
      if (type === 'checkbox' || type === 'radio' || type === 'file') {
        box ??= el.getBoundingClientRect();
        if (visuallyHidden(el, box)) candidate = false;
      }
    }
    let listedPos: number | undefined;
    // A hidden (visibility) candidate is never listed: its box is not needed.
    if (candidate && cssVisible) {
      box ??= el.getBoundingClientRect();
      let rect = box;
      // display:contents and zero-size elements with visibly overflowing content (a link around an
      // absolutely positioned label) are where their content is (Chromium lists them too).
      if ((rect.width === 0 || rect.height === 0) && el.firstChild) rect = contentBoxIfEmpty(el, rect);
      const sized = rect.width > 0 && rect.height > 0;
      // A focus target with no size (an empty <div tabindex=0>, an empty <a href title>) is listed
      // too, with is_visible false: Chromium's accessibility tree keeps it, focus and Enter reach it.
      if ((sized || (display !== 'contents' && focusableWithoutBox(el, tag, attrs))) && this.intersects(rect, this.scope)) {
        if (this.elements.length >= this.maxElements) {
          this.omitted++;
        } else {
          const item = this.describe(
            el,
            tag,
            role || roleOf(el),
            rect,
            inShadow,
            p,
            labelFor,
            this.xpathAt(el, tag, ordinal, p, shadowTop),
          );
          if (!sized) {
            // No point of it is drawn: nothing covers it, and a click has nowhere to land (focus does).
            item.is_visible = false;
            item.is_top_element = true;
            item.available_operations = item.available_operations.filter((o) => o !== 'click');
          }
          listedPos = this.add(el, item);
        }
      }
    }
    const listed = listedPos ?? p.listed;

    // iframes: a placeholder the worker fills with the child document's snapshot.
    if (tag === 'iframe' || tag === 'frame') {
      // The worker finds this iframe's chrome frame id by the token: the child frame's content
      // script keeps the last token its parent posted (chrome.runtime.getFrameId is not available
      // to content scripts in current Chromium).
      const fr = (box ??= el.getBoundingClientRect());
      const frVisible = cssVisible && fr.width > 0 && fr.height > 0;
      const frInScope = this.intersects(fr, this.scope);
      let token: string | undefined;
      if (frVisible && frInScope) {
        token = frameTokenOf(el);
        try {
          (el as HTMLIFrameElement).contentWindow?.postMessage({ [FRAME_TOKEN_KEY]: token }, '*');
        } catch {
          token = undefined;
        }
      }
      const offset = {
        x: fr.left + el.clientLeft + parseFloat(style.paddingLeft || '0'),
        y: fr.top + el.clientTop + parseFloat(style.paddingTop || '0'),
      };
      const status: FrameChild['status'] = !frVisible ? 'hidden' : !frInScope ? 'outside_scope' : 'ok';
      this.frameEls.push(el);
      const src = token ? (el as HTMLIFrameElement).src : '';
      this.frames.push({
        frame_id: -1,
        offset,
        status,
        ...(token ? { token } : {}),
        ...(src ? { src } : {}),
        ...(listed !== undefined ? { parent_pos: listed } : {}),
      });
      this.order.push('f');
      return;
    }

    // A dropdown <select> shows only its selected option (its popup is not page content, and
    // Chromium's accessibility tree has no options under a collapsed one): its line says that
    // option, its other options are neither text nor elements of the state.
    if (tag === 'select' && !(el as HTMLSelectElement).multiple && (el as HTMLSelectElement).size <= 1) {
      const item = listedPos !== undefined ? this.elements[listedPos] : undefined;
      const chosen = (el as HTMLSelectElement).selectedOptions[0];
      // current_value is set only when the value may be shown (not a card or one-time-code field).
      if (item && item.current_value !== undefined && chosen) this.textBufs[listedPos as number] = [chosen.label || chosen.text];
      return;
    }
    const sr = shadowRootOf(el, tag);
    if (sr) this.rootsMet.push(sr);
    const first = el.firstChild;
    if (!sr && first === null) return; // a leaf: nothing below to visit
    // visibility:hidden with nothing inside that can be visible again (hidden-prune.ts): not entered.
    if (!cssVisible && !sr && !inShadow && this.hidden.canSkip(el, (label) => this.labelOperates(label))) return;
    // Viewport scope: a shadow host (a web component) wholly outside the scope whose content cannot
    // be seen outside its box is not entered (host-prune.ts says when that holds).
    if (sr && !all) {
      box ??= el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && !this.intersects(box, this.scope) && this.hosts.canSkip(el, style, sr)) return;
    }

    // Text blocks for the text context.
    let block = p.block;
    let blockRole = p.blockRole;
    let level = p.level;
    const br = BLOCK_ROLE[tag];
    if (br !== undefined || role === 'heading') {
      block = el;
      blockRole = role === 'heading' ? 'heading' : (br ?? null);
      level = blockRole === 'heading' ? Number(el.getAttribute('aria-level') ?? tag.slice(1)) || 2 : undefined;
    }
    const contents = display === 'contents';
    const child: Parent = {
      listed,
      pointer,
      inShadow,
      block,
      blockRole,
      level,
      parentEl: el,
      cell: tag === 'td' || tag === 'th' ? el : tag === 'tr' ? null : p.cell,
      cssVisible,
      contents,
      // Whole page: the box of a candidate (read above) decides its text's visibility; other
      // elements' text counts as visible with the style alone. Viewport: the box, read on demand.
      rect: all ? (candidate ? box : null) : box,
      rectPending: !all && box === null && cssVisible && !contents,
      up: p,
      ordinal,
      top: shadowTop,
      xpath: undefined,
    };

    if (sr) this.visitChildren(sr.firstChild, child, true, null);
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === 'summary') {
          this.visitElement(c, 'summary', 0, child, false);
          break;
        }
      }
    } else if (!all && first !== null && (tag === 'tbody' || tag === 'thead' || tag === 'tfoot')) {
      this.visitRows(el, child, sr ? el : null);
    } else {
      this.visitChildren(first, child, false, sr ? el : null);
    }
  }

  /** Records a listed element; returns its position in `elements`. */
  private add(el: Element, item: FrameElement): number {
    const pos = this.elements.length;
    this.elements.push(item);
    this.listedEls.push(el);
    this.order.push('e');
    this.listedNow.add(el);
    return pos;
  }

  /** The rendered links of an inline <svg> the walk does not enter, each listed as a link with the text it draws. */
  private visitSvgLinks(svg: Element, p: Parent, shadowTop: boolean): void {
    for (const a of svgLinks(svg)) {
      const rect = a.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || !this.intersects(rect, this.scope)) continue;
      if (this.elements.length >= this.maxElements) {
        this.omitted++;
        continue;
      }
      const pos = this.add(a, this.describe(a, 'a', roleOf(a), rect, p.inShadow || shadowTop, p, null, this.xpathOf(a)));
      const text = svgLinkText(a);
      if (text) this.textBufs[pos] = [text];
    }
  }

  /**
   * Viewport scope on a long table body: rows are laid out top to bottom, so the first row that
   * reaches the scope is found by binary search and the walk stops after the last one; a
   * 10,000-row table costs a few dozen boxes instead of 10,000. Returns [from, to) over childNodes.
   */
  private rowWindow(nodes: NodeListOf<ChildNode>): [number, number] {
    if (nodes.length < 64) return [0, nodes.length];
    const rowAt = (i: number): DOMRect | null => {
      const n = nodes[i] as Node;
      return n.nodeType === 1 && (n as Element).localName === 'tr' ? (n as Element).getBoundingClientRect() : null;
    };
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      let j = mid;
      let r = rowAt(j);
      while (!r && j < hi) r = rowAt(++j);
      if (!r) {
        hi = mid;
        continue;
      }
      if (r.height > 0 && r.bottom < this.scope.top) lo = j + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < nodes.length) {
      const r = rowAt(end);
      if (r && r.height > 0 && r.top > this.scope.bottom) break;
      end++;
    }
    return [lo, end];
  }

  /** Viewport scope, children of a table section: only the window of rows that reaches the scope (rowWindow). */
  private visitRows(section: Element, p: Parent, host: Element | null): void {
    const nodes = section.childNodes;
    const [from, to] = this.rowWindow(nodes);
    for (let i = from; i < to; i++) {
      const n = nodes[i] as Node;
      const type = n.nodeType;
      // Rows outside the window are not counted: the row's xpath is worked out from the DOM.
      if (type === 1) this.visitElement(n as Element, (n as Element).localName, 0, p, false);
      else if (type === 3 && (!host || (n as Text).assignedSlot)) this.visitText(n as Text, p);
    }
  }

  /** The visually hidden control a label operates (it is listed through the label, never on its own), or null. */
  private labelOperates(label: HTMLLabelElement): Element | null {
    const control = label.control;
    if (!control || !visuallyHidden(control, control.getBoundingClientRect())) return null;
    this.operatedByLabel.add(control);
    return control;
  }

  /** Per depth of sibling loops, the count of each tag so far (reused: one Map per depth, not per element). */
  private readonly tagCounts: Map<string, number>[] = [];
  private depth = 0;

  /** Visits first and its following siblings, counting element siblings per tag for the xpaths. */
  private visitChildren(first: Node | null, p: Parent, shadowTop: boolean, host: Element | null): void {
    const d = this.depth++;
    let counts = this.tagCounts[d];
    if (counts === undefined) counts = this.tagCounts[d] = new Map();
    else if (counts.size !== 0) counts.clear();
    for (let n = first; n !== null; n = n.nextSibling) {
      const type = n.nodeType;
      if (type === 1) {
        const tag = (n as Element).localName;
        const k = (counts.get(tag) ?? 0) + 1;
        counts.set(tag, k);
        if (this.visitElement(n as Element, tag, k, p, shadowTop) === NOT_A_SIBLING) counts.set(tag, k - 1);
      } else if (type === 3) {
        // Light children of a shadow host render only when slotted.
        if (host && !(n as Text).assignedSlot) continue;
        this.visitText(n as Text, p);
      }
    }
    this.depth = d;
  }

  private visitText(node: Text, p: Parent): void {
    // Hidden text first: reading nodeValue copies the text out of the DOM.
    if (!p.cssVisible) return;
    const raw = node.nodeValue;
    if (!raw) return;
    const text = raw.trim();
    if (!text) return;
    if (p.rectPending) {
      p.rect = (p.parentEl as Element).getBoundingClientRect();
      p.rectPending = false;
    }
    // The parent's box (none for display:contents): a zero-size box hides its text.
    const r = p.contents ? null : p.rect;
    if (r && (r.width === 0 || r.height === 0)) return;
    let inScope = true;
    if (!this.scope.all) {
      if (
        r &&
        r.width > 0 &&
        r.height > 0 &&
        r.left >= this.scope.left &&
        r.right <= this.scope.right &&
        r.top >= this.scope.top &&
        r.bottom <= this.scope.bottom
      )
        inScope = true;
      else if (r && r.width > 0 && !this.intersects(r, this.scope)) inScope = false;
      else {
        const range = document.createRange();
        range.selectNodeContents(node);
        inScope = false;
        for (const rr of range.getClientRects()) {
          if (rr.width > 0 && rr.height > 0 && this.intersects(rr, this.scope)) {
            inScope = true;
            break;
          }
        }
      }
    }
    if (!inScope) return;
    if (p.listed !== undefined) {
      (this.textBufs[p.listed] ??= []).push(text);
    } else if (!this.textCut && this.maxText > 0) {
      // Most text has no whitespace to collapse (only single spaces): no new string for it.
      let shown = NOT_A_SINGLE_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text;
      let redacted = false;
      if (this.privacy.redactPii) {
        const m = maskPii(shown);
        redacted = m.kinds.length > 0;
        shown = m.text;
      }
      const last = this.texts[this.texts.length - 1];
      const joinLast = last && this.order[this.order.length - 1] === 't' && this.lastTextBlock === p.block;
      const sep = joinLast && p.cell !== this.lastTextCell ? ' | ' : ' ';
      const add = (joinLast ? sep.length : 0) + shown.length;
      if (this.textChars + add > this.maxText) {
        this.textCut = true;
      } else {
        this.textChars += add;
        if (joinLast && last) {
          last.text += `${sep}${shown}`;
          if (redacted) last.redacted = true;
        } else {
          const item: FrameText = { text: shown };
          if (p.blockRole) item.role = p.blockRole;
          if (p.blockRole === 'heading' && p.level) item.level = Math.min(6, Math.max(1, p.level));
          if (redacted) item.redacted = true;
          this.texts.push(item);
          this.order.push('t');
          this.lastTextBlock = p.block;
        }
        this.lastTextCell = p.cell;
      }
    }
  }

  private describe(
    el: Element,
    tag: string,
    role: string,
    rect: DOMRect,
    inShadow: boolean,
    p: Parent,
    labelFor: Element | null,
    xpath: string,
  ): FrameElement {
    const target = labelFor ?? el;
    const effRole = labelFor ? roleOf(labelFor) : role;
    const type = elementType(target, effRole);
    const isFocused = this.focused === el || (labelFor !== null && this.focused === labelFor);
    const names = el.getAttributeNames();
    const states = statesOf(target, effRole, isFocused, hasAriaAttribute(target === el ? names : target.getAttributeNames()));
    const attributes: Record<string, string> = {};
    const sensitive = sensitiveReason(target, this.privacy);
    // One pass over the element's attribute names (no Attr nodes are made, unlike el.attributes)
    // instead of 13 lookups; keeps the element's order, as browser_use does.
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (!SHOWN.has(name)) continue;
      if (Object.hasOwn(attributes, name)) {
        // Two attributes of one qualified name (setAttributeNS): the last one's value, as the Attr loop gave.
        this.shownAttributesSlow(el, attributes, sensitive);
        break;
      }
      this.shownAttribute(attributes, name, el.getAttribute(name) as string, sensitive);
    }
    // The box's four numbers read once (each DOMRect getter is a binding call; a whole-page state
    // asks this of thousands of elements). right = left + width and bottom = top + height, as
    // DOMRectReadOnly computes them for a box of non-negative size (https://drafts.fxtf.org/geometry/#dom-domrectreadonly-right).
    const left = rect.left;
    const top = rect.top;
    const width = rect.width;
    const height = rect.height;
    const cx = left + width / 2;
    const cy = top + height / 2;
    const centreInView = cx >= 0 && cy >= 0 && cx < this.vw && cy < this.vh;
    const vp = this.vp;
    const item: FrameElement = {
      id: this.refs.refFor(el),
      type,
      tag,
      role: effRole,
      name: accessibleName(labelFor ? labelFor : el, undefined, this.labels, effRole),
      attributes,
      is_visible: true,
      available_operations: operationsFor(type, states.disabled === true),
      // this.intersects(rect, this.vp) from the numbers above (vp is never the whole page).
      is_in_viewport: left + width >= vp.left && left <= vp.right && top + height >= vp.top && top <= vp.bottom,
      is_top_element: centreInView ? hitTarget(el, cx, cy) : true,
      bounds: { x: Math.round(left), y: Math.round(top), width: Math.round(width), height: Math.round(height) },
      xpath,
    };
    // Lean on the wire (a whole-page state can list 20,000 elements): these appear only when they apply.
    if (hasOwnKey(states)) item.states = states;
    if (inShadow) item.in_shadow_root = true;
    if (this.memory.previous !== null && !this.memory.previous.has(el)) item.is_new = true;
    if (!item.name && labelFor === null && el.localName === 'label') item.name = accessibleName(el, undefined, this.labels, role);
    if (this.privacy.redactPii && item.name) item.name = maskPii(item.name).text;
    if (p.listed !== undefined) item.parent_pos = p.listed;
    // Values: read here, redacted here.
    const targetTag = labelFor ? labelFor.localName : tag;
    const value = valueOf(target, targetTag);
    if (sensitive) {
      item.redacted = { reason: sensitive, has_value: (value ?? '') !== '' } satisfies Redaction;
    } else if (value !== null) {
      if (this.privacy.redactPii) {
        const m = maskPii(value);
        item.current_value = m.text;
        if (m.kinds.length) item.redacted = { reason: 'pii', has_value: value !== '', kinds: m.kinds };
      } else item.current_value = value;
    }
    if (!sensitive && targetTag === 'select' && target instanceof HTMLSelectElement && target.selectedOptions[0]) {
      item.current_value = target.selectedOptions[0].value;
    }
    return item;
  }

  private shownAttribute(out: Record<string, string>, name: string, v: string, sensitive: SensitiveReason | null): void {
    if (name === 'value' && sensitive) out[name] = redactedMarker(sensitive);
    else if (this.privacy.redactPii && name !== 'href' && name !== 'type') out[name] = maskPii(v).text;
    else out[name] = v;
  }

  /** The shown attributes through el.attributes (every Attr, duplicates of a qualified name included). */
  private shownAttributesSlow(el: Element, out: Record<string, string>, sensitive: SensitiveReason | null): void {
    for (const k of Object.keys(out)) delete out[k];
    for (const at of el.attributes) if (SHOWN.has(at.name)) this.shownAttribute(out, at.name, at.value, sensitive);
  }
}

export type { ActionableElement };
