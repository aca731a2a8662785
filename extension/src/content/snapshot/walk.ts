// The snapshot walk: ONE depth-first pass over this document (shadow roots included, open and
// closed; iframes recorded as placeholders the worker fills), in browser_use's order (shadow
// children before light children). Per element it reads the computed style and the bounding rect
// once; everything else (accessible name, hit test, attributes) is computed only for the elements
// that end up listed. Subtrees that are hidden (display:none, inert, closed <details>, our own
// data-browser-agent-ui) are never entered, and in viewport scope the rows/blocks that lie wholly
// outside the expanded viewport are skipped with their subtree.
import type { ActionableElement, DomElementNode, DomNode, GetStateParams, Redaction, TextItem } from '../../../../schemas/generated/protocol';
import type { FrameChild, FrameElement, FrameSnapshot, FrameText } from '../../shared/frame-snapshot';
import type { RefRegistry } from '../refs';
import { accessibleName, LabelIndex } from './accname';
import { contentBoxIfEmpty } from '../interaction/dom';
import { elementType, isInteractiveByMarkup, operationsFor, statesOf } from './classify';
import { maskPii, redactedMarker, sensitiveReason, type PrivacyOptions } from './privacy';
import { roleOf } from './roles';
import { segmentsOf } from './xpath';
import { buildBrowserUseTree } from '../browser-use-tree/build';
import { rememberHighlights } from '../browser-use-tree/highlight';

/** Key of the postMessage a parent frame sends its iframes during a snapshot. */
export const FRAME_TOKEN_KEY = '__browser_use_ext_frame_token';

export const DEFAULTS = { viewport_expansion: 0, max_elements: 1500, max_text_chars: 30000 } as const;

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'svg', 'math', 'object', 'embed']);
/** Attributes an agent needs to identify an element: browser_use's include_attributes plus id, href, autocomplete. */
const SHOWN = new Set(['id', 'title', 'type', 'name', 'role', 'aria-label', 'placeholder', 'value', 'alt', 'aria-expanded', 'data-date-format', 'href', 'autocomplete']);
/** Block-level containers whose children cannot normally escape their box: skipped whole when outside the scope. */
const PRUNABLE = new Set(['tr', 'li', 'p', 'td', 'th', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'option', 'label', 'thead', 'tfoot']);
const BLOCK_ROLE: Record<string, TextItem['role'] | null> = {
  p: 'paragraph', li: 'listitem', caption: 'caption', label: 'label', legend: 'legend',
  pre: 'code', blockquote: 'blockquote', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
  div: null, section: null, article: null, main: null, header: null, footer: null, nav: null, aside: null, form: null, fieldset: null,
  table: null, tr: 'row', tbody: null, thead: null, tfoot: null, ul: null, ol: null, dl: null, dt: null, dd: null, body: null, html: null,
  figure: null, figcaption: 'caption', details: null, summary: null, dialog: null, address: null, center: null, hr: null, br: null,
};
const CURSOR_INTERACTIVE = 'pointer';

interface Parent {
  /** Position in `elements` of the nearest listed ancestor. */
  listed: number | undefined;
  pointer: boolean;
  inShadow: boolean;
  block: Element | null;
  blockRole: TextItem['role'] | null;
  level: number | undefined;
  /** The parent element's visibility and (viewport scope only) box, for its text children. */
  parentEl: Element | null;
  /** Nearest table cell: cells of one row share the row's text item, separated by " | ". */
  cell: Element | null;
  parentVisible: boolean;
  parentRect: DOMRect | null;
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

const chromeDom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null } } }).chrome?.dom;

/** Elements that may host a shadow root (DOM "attachShadow" valid names), besides custom elements. */
const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

/** The shadow root of el, open or closed (chrome.dom.openOrClosedShadowRoot; content scripts only). */
export function shadowRootOf(el: Element): ShadowRoot | null {
  if (el.shadowRoot) return el.shadowRoot;
  // The chrome.dom binding costs microseconds per call: ask only for elements that can be hosts.
  if (!SHADOW_HOSTS.has(el.localName) && !el.localName.includes('-')) return null;
  if (!chromeDom?.openOrClosedShadowRoot || !(el instanceof HTMLElement)) return null;
  try {
    return chromeDom.openOrClosedShadowRoot(el) ?? null;
  } catch {
    return null;
  }
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

/** A control styled away (opacity 0, 1px box, clipped) and operated through its label instead. */
function visuallyHidden(el: Element): boolean {
  if (!isVisible(el)) return true;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) return true;
  return !el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
}

function hitTarget(el: Element, x: number, y: number): boolean {
  const root = el.getRootNode() as Document | ShadowRoot;
  let hit: Element | null;
  try {
    hit = root.elementFromPoint(x, y);
  } catch {
    return true;
  }
  if (!hit) return false;
  // Inside el, in the flat tree (the hit may be inside el's own shadow root).
  for (let n: Node | null = hit; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null)) {
    if (n === el) return true;
  }
  // A <label> over its control counts as the control being reachable (the label forwards the click).
  if (hit instanceof HTMLLabelElement && hit.control === el) return true;
  return !!hit.closest('[data-browser-agent-ui]');
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
  private readonly withTree: boolean;
  private readonly privacy: PrivacyOptions;
  private readonly focused: Element | null;
  private readonly listedNow = new WeakSet<Element>();
  private readonly labels = new LabelIndex();
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
    this.scope = exp === -1 ? { all: true, left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity } : { all: false, left: -exp, top: -exp, right: this.vw + exp, bottom: this.vh + exp };
    const e0 = Math.max(exp, 0);
    this.vp = { all: false, left: -e0, top: -e0, right: this.vw + e0, bottom: this.vh + e0 };
    this.maxElements = params.max_elements ?? DEFAULTS.max_elements;
    this.maxText = params.max_text_chars ?? DEFAULTS.max_text_chars;
    // dom_tree now comes from content/browser-use-tree (browserUseTree below); the walk no longer builds its own.
    this.withTree = false;
    this.privacy = { redactPii: params.redact_pii === true, redactCardAndOtp: params.redact_card_and_otp !== false };
    this.focused = deepActiveElement();
  }

  run(isTop: boolean): FrameSnapshot {
    const start = performance.now();
    const doc = document;
    let tree: DomNode | undefined;
    const base: Parent = { listed: undefined, pointer: false, inShadow: false, block: null, blockRole: null, level: undefined, parentEl: null, cell: null, parentVisible: true, parentRect: null };
    if (isTop) {
      const body = doc.body;
      const node = body ? this.visitElement(body, base, false) : null;
      tree = this.withTree ? ({ kind: 'element', tag: 'body', xpath: '/body', attributes: {}, children: node && node.kind === 'element' ? node.children : [] } satisfies DomElementNode) : undefined;
    } else {
      const html = doc.documentElement;
      const node = html ? this.visitElement(html, base, false) : null;
      tree = this.withTree ? (node ?? { kind: 'element', tag: 'html', xpath: 'html', attributes: {}, children: [] }) : undefined;
    }
    if (this.params.include_dom_tree === true) tree = this.browserUseTree(isTop);
    for (let i = 0; i < this.elements.length; i++) {
      const text = (this.textBufs[i] ?? []).join(' ').replace(/\s+/g, ' ').trim();
      const el = this.elements[i] as FrameElement;
      if (text) {
        if (this.privacy.redactPii) {
          const m = maskPii(text);
          el.text_content = m.text.slice(0, 500);
        } else el.text_content = text.slice(0, 500);
      }
    }
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
      page_size: { width: Math.max(de?.scrollWidth ?? 0, doc.body?.scrollWidth ?? 0), height: Math.max(de?.scrollHeight ?? 0, doc.body?.scrollHeight ?? 0) },
      focused,
      elements_omitted: this.omitted,
      text_cut: this.textCut,
      walk_ms: Math.round((performance.now() - start) * 10) / 10,
    };
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
  private readonly segments = new Map<Element, Map<Element, string>>();

  /** browser_use xpath of el, computed on demand (listed elements and tree nodes only) with memoised ancestors and sibling lists. */
  xpathOf(el: Element): string {
    const known = this.xpaths.get(el);
    if (known !== undefined) return known;
    let out: string;
    if (el.parentNode instanceof ShadowRoot) out = '';
    else {
      const parent = el.parentElement;
      if (!parent) out = el.localName;
      else {
        let segs = this.segments.get(parent);
        if (!segs) {
          const kids = parent.children;
          const list = segmentsOf(kids);
          segs = new Map();
          for (let i = 0; i < kids.length; i++) segs.set(kids[i] as Element, list[i] as string);
          this.segments.set(parent, segs);
        }
        const seg = segs.get(el) ?? el.localName;
        const px = this.xpathOf(parent);
        out = px ? `${px}/${seg}` : seg;
      }
    }
    this.xpaths.set(el, out);
    return out;
  }

  /** Visits one element; returns its dom_tree node when the tree is asked for and the node is kept. */
  private visitElement(el: Element, p: Parent, shadowTop: boolean): DomElementNode | null {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return null;
    if (el.hasAttribute('data-browser-agent-ui') || el.hasAttribute('inert')) return null;
    const style = getComputedStyle(el);
    const display = style.display;
    if (display === 'none') return null;
    const inShadow = p.inShadow || shadowTop;
    // The box is read eagerly only in viewport scope (to prune); for the whole page only where needed.
    let rectCache: DOMRect | null = this.scope.all ? null : el.getBoundingClientRect();
    const getRect = (): DOMRect => (rectCache ??= el.getBoundingClientRect());
    const cssVisible = style.visibility === 'visible';
    if (rectCache) {
      const r = rectCache;
      if (r.width > 0 && r.height > 0 && !this.intersects(r, this.scope) && PRUNABLE.has(tag) && style.position !== 'fixed' && style.position !== 'sticky') return null;
    }
    const pointer = style.cursor === CURSOR_INTERACTIVE;
    // The role matters here only when it is explicit (an interactive ARIA role, role=heading);
    // the implicit role (HTML-AAM: a <td> looks up its table, a <header> its sectioning ancestors)
    // is computed in describe(), for listed elements only. '' = no role attribute.
    const role = el.getAttribute('role') !== null ? roleOf(el) : '';

    // Is it listed?
    let candidate = isInteractiveByMarkup(el, role);
    if (!candidate && pointer && !p.pointer && tag !== 'label' && tag !== 'body' && tag !== 'html') candidate = true;
    let labelFor: Element | null = null;
    if (tag === 'label') {
      const control = (el as HTMLLabelElement).control;
      if (control && visuallyHidden(control)) {
        candidate = true;
        labelFor = control;
        this.operatedByLabel.add(control);
      }
    }
    if (candidate && this.operatedByLabel.has(el)) candidate = false;
    if (candidate && el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio' || el.type === 'file') && visuallyHidden(el)) candidate = false;
    let listedPos: number | undefined;
    let listedNode: FrameElement | undefined;
    let rect: DOMRect | null = null;
    let visible = false;
    if (candidate) {
      rect = getRect();
      // display:contents and zero-size elements with visibly overflowing content (a link around an
      // absolutely positioned label) are where their content is (Chromium lists them too).
      if ((rect.width === 0 || rect.height === 0) && el.firstChild) rect = contentBoxIfEmpty(el, rect);
      visible = cssVisible && rect.width > 0 && rect.height > 0;
    }
    if (candidate && visible && this.intersects(rect as DOMRect, this.scope)) {
      if (this.elements.length >= this.maxElements) {
        this.omitted++;
      } else {
        listedPos = this.elements.length;
        listedNode = this.describe(el, tag, role || roleOf(el), rect as DOMRect, inShadow, p, labelFor);
        this.elements.push(listedNode);
        this.listedEls.push(el);
        this.order.push('e');
        this.listedNow.add(el);
      }
    }

    // Text blocks for the text context.
    let block = p.block;
    let blockRole = p.blockRole;
    let level = p.level;
    const br = BLOCK_ROLE[tag];
    if (br !== undefined || role === 'heading') {
      block = el;
      blockRole = role === 'heading' ? 'heading' : br ?? null;
      level = blockRole === 'heading' ? Number(el.getAttribute('aria-level') ?? tag.slice(1)) || 2 : undefined;
    }

    const child: Parent = {
      listed: listedPos ?? p.listed,
      pointer,
      inShadow,
      block,
      blockRole,
      level,
      parentEl: el,
      cell: tag === 'td' || tag === 'th' ? el : tag === 'tr' ? null : p.cell,
      parentVisible: cssVisible && rectCache && display !== 'contents' ? rectCache.width > 0 && rectCache.height > 0 : cssVisible,
      parentRect: display === 'contents' ? null : rectCache,
    };

    // iframes: a placeholder the worker fills with the child document's snapshot.
    if (tag === 'iframe' || tag === 'frame') {
      // The worker finds this iframe's chrome frame id by the token: the child frame's content
      // script keeps the last token its parent posted (chrome.runtime.getFrameId is not available
      // to content scripts in current Chromium).
      const fr = getRect();
      const frVisible = cssVisible && fr.width > 0 && fr.height > 0;
      const frInScope = this.intersects(fr, this.scope);
      let token: string | undefined;
      if (frVisible && frInScope) {
        token = crypto.randomUUID();
        try {
          (el as HTMLIFrameElement).contentWindow?.postMessage({ [FRAME_TOKEN_KEY]: token }, '*');
        } catch {
          token = undefined;
        }
      }
      const frameId = -1;
      const cs = style;
      const offset = { x: fr.left + el.clientLeft + parseFloat(cs.paddingLeft || '0'), y: fr.top + el.clientTop + parseFloat(cs.paddingTop || '0') };
      const status: FrameChild['status'] = !frVisible ? 'hidden' : !frInScope ? 'outside_scope' : 'ok';
      this.frameEls.push(el);
      const src = token ? (el as HTMLIFrameElement).src : '';
      this.frames.push({ frame_id: frameId, offset, status, ...(token ? { token } : {}), ...(src ? { src } : {}), ...(child.listed !== undefined ? { parent_pos: child.listed } : {}) });
      this.order.push('f');
      if (!this.withTree) return null;
      return { kind: 'element', tag, xpath: this.xpathOf(el), attributes: this.allAttributes(el), is_visible: frVisible, is_interactive: false, is_top_element: frVisible, is_in_viewport: frVisible && this.intersects(fr, this.vp), shadow_root: false, ...(token ? { frame_id: -this.frames.length } : {}), children: [] };
    }

    const kids: DomNode[] | null = this.withTree ? [] : null;
    const sr = shadowRootOf(el);
    if (sr) this.visitChildren(sr.childNodes, child, kids, true, null);
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      const summary = [...el.children].find((c) => c.localName === 'summary');
      if (summary) this.visitChildren([summary], child, kids, false, null);
    } else {
      this.visitChildren(el.childNodes, child, kids, false, sr ? el : null);
    }

    if (!this.withTree) return null;
    // A <label> that is not listed stays in the tree whenever it is rendered: browser_use 0.1.48
    // indexed every visible label, and the Python shim reproduces that from this node (dom_node.json).
    const shimLabel = tag === 'label' && listedNode === undefined;
    if (listedNode === undefined && (kids as DomNode[]).length === 0 && !shimLabel) return null;
    const box = getRect();
    const boxed = box.width > 0 && box.height > 0;
    if (listedNode === undefined && (kids as DomNode[]).length === 0 && !(cssVisible && boxed)) return null;
    let top = cssVisible && boxed;
    if (shimLabel && top) {
      const cx = box.left + box.width / 2;
      const cy = box.top + box.height / 2;
      if (cx >= 0 && cy >= 0 && cx < this.vw && cy < this.vh) top = hitTarget(el, cx, cy);
    }
    const node: DomElementNode = {
      kind: 'element',
      tag,
      xpath: this.xpathOf(el),
      attributes: listedNode ? this.allAttributes(el) : shimLabel ? this.labelAttributes(el) : {},
      is_visible: cssVisible && boxed,
      is_interactive: listedNode !== undefined,
      is_top_element: listedNode ? listedNode.is_top_element === true : top,
      is_in_viewport: boxed && this.intersects(box, this.vp),
      shadow_root: sr !== null,
      ...(listedNode ? { element_id: listedNode.id } : {}),
      children: kids as DomNode[],
    };
    return node;
  }

  /**
   * Viewport scope on a long table body: rows are laid out top to bottom, so the first row that
   * reaches the scope is found by binary search and the walk stops after the last one; a
   * 10,000-row table costs a few dozen boxes instead of 10,000. Returns [from, to) over childNodes.
   */
  private rowWindow(parent: Element | null, nodes: ArrayLike<Node>): [number, number] {
    if (this.scope.all || !parent || nodes.length < 64) return [0, nodes.length];
    const tag = parent.localName;
    if (tag !== 'tbody' && tag !== 'thead' && tag !== 'tfoot') return [0, nodes.length];
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

  private visitChildren(nodes: ArrayLike<Node>, p: Parent, kids: DomNode[] | null, shadowTop: boolean, host: Element | null): void {
    const [from, to] = this.rowWindow(p.parentEl, nodes);
    for (let i = from; i < to; i++) {
      const n = nodes[i] as Node;
      if (n.nodeType === 1) {
        const node = this.visitElement(n as Element, p, shadowTop);
        if (node && kids) kids.push(node);
      } else if (n.nodeType === 3) {
        // Light children of a shadow host render only when slotted.
        if (host && !(n as Text).assignedSlot) continue;
        const t = this.visitText(n as Text, p);
        if (t && kids) kids.push(t);
      }
    }
  }

  private visitText(node: Text, p: Parent): DomNode | null {
    const raw = node.nodeValue;
    if (!raw) return null;
    const text = raw.trim();
    if (!text) return null;
    if (!p.parentVisible) return null;
    let inScope = true;
    if (!this.scope.all) {
      const r = p.parentRect;
      if (r && r.width > 0 && r.height > 0 && r.left >= this.scope.left && r.right <= this.scope.right && r.top >= this.scope.top && r.bottom <= this.scope.bottom) inScope = true;
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
    if (!inScope) return null;
    if (p.listed !== undefined) {
      (this.textBufs[p.listed] ??= []).push(text);
    } else if (!this.textCut && this.maxText > 0) {
      let shown = text.replace(/\s+/g, ' ');
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
    if (!this.withTree) return null;
    return { kind: 'text', text: this.privacy.redactPii ? maskPii(text).text : text, is_visible: true };
  }

  private describe(el: Element, tag: string, role: string, rect: DOMRect, inShadow: boolean, p: Parent, labelFor: Element | null): FrameElement {
    const target = labelFor ?? el;
    const effRole = labelFor ? roleOf(labelFor) : role;
    const type = elementType(target, effRole);
    const isFocused = this.focused === el || (labelFor !== null && this.focused === labelFor);
    const states = statesOf(target, effRole, isFocused);
    const attributes: Record<string, string> = {};
    const sensitive = sensitiveReason(target, this.privacy);
    // One pass over the element's own attributes (usually a handful) instead of 13 lookups; keeps the element's order, as browser_use does.
    for (const at of el.attributes) {
      const name = at.name;
      if (!SHOWN.has(name)) continue;
      const v = at.value;
      if (name === 'value' && sensitive) attributes[name] = redactedMarker(sensitive);
      else if (this.privacy.redactPii && name !== 'href' && name !== 'type') attributes[name] = maskPii(v).text;
      else attributes[name] = v;
    }
    const cx = rect.left + rect.width / 2;
    const cy = rect.top + rect.height / 2;
    const centreInView = cx >= 0 && cy >= 0 && cx < this.vw && cy < this.vh;
    const item: FrameElement = {
      id: this.refs.refFor(el),
      type,
      tag,
      role: effRole,
      name: accessibleName(labelFor ? labelFor : el, undefined, this.labels),
      attributes,
      is_visible: true,
      available_operations: operationsFor(type, states.disabled === true),
      is_in_viewport: this.intersects(rect, this.vp),
      is_top_element: centreInView ? hitTarget(el, cx, cy) : true,
      bounds: { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) },
      xpath: this.xpathOf(el),
    };
    // Lean on the wire (a whole-page state can list 20,000 elements): these appear only when they apply.
    if (Object.keys(states).length > 0) item.states = states;
    if (inShadow) item.in_shadow_root = true;
    if (this.memory.previous !== null && !this.memory.previous.has(el)) item.is_new = true;
    if (!item.name && labelFor === null && el.localName === 'label') item.name = accessibleName(el, undefined, this.labels);
    if (this.privacy.redactPii && item.name) item.name = maskPii(item.name).text;
    if (p.listed !== undefined) item.parent_pos = p.listed;
    // Values: read here, redacted here.
    const valueOf = (t: Element): string | null => {
      if (t instanceof HTMLInputElement) return ['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(t.type) ? null : t.value;
      if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return t.value;
      return null;
    };
    const value = valueOf(target);
    if (sensitive) {
      item.redacted = { reason: sensitive, has_value: (value ?? '') !== '' } satisfies Redaction;
    } else if (value !== null) {
      if (this.privacy.redactPii) {
        const m = maskPii(value);
        item.current_value = m.text;
        if (m.kinds.length) item.redacted = { reason: 'pii', has_value: value !== '', kinds: m.kinds };
      } else item.current_value = value;
    }
    if (!sensitive && target instanceof HTMLSelectElement && target.selectedOptions[0]) {
      item.current_value = target.selectedOptions[0].value;
    }
    return item;
  }

  /**
   * A label's attributes as buildDomTree.js 0.1.48 collected them: all of them for an "interactive
   * candidate" (onclick, role, tabindex, data-action, contenteditable="true", or an attribute literally
   * named "aria-": its check was hasAttribute('aria-')),
   * none otherwise; `disabled`/`readonly` are always passed so the shim can skip labels 0.1.48 did not index.
   */
  private labelAttributes(el: Element): Record<string, string> {
    const candidate = ['onclick', 'role', 'tabindex', 'data-action'].some((a) => el.hasAttribute(a)) || el.getAttribute('contenteditable') === 'true' || el.hasAttribute('aria-');
    if (candidate) return this.allAttributes(el);
    const out: Record<string, string> = {};
    for (const a of ['disabled', 'readonly']) {
      const v = el.getAttribute(a);
      if (v !== null) out[a] = v;
    }
    return out;
  }

  private allAttributes(el: Element): Record<string, string> {
    const out: Record<string, string> = {};
    const sensitive = sensitiveReason(el, this.privacy);
    for (const a of el.attributes) {
      if (a.name === 'value' && sensitive) out[a.name] = redactedMarker(sensitive);
      else if (this.privacy.redactPii) out[a.name] = maskPii(a.value).text;
      else out[a.name] = a.value;
    }
    return out;
  }
}


export type { ActionableElement };
