// browser_use's element tree for this document, computed the way its own buildDomTree.js computes
// it under Playwright (browser_use 0.1.48 and 0.1.40, python package browser_use/dom/buildDomTree.js;
// MIT licensed), so that the real DOMElementNode.clickable_elements_to_string prints the same lines
// with the same 0-based indexes. Every rule below is that file's rule, kept as it is even
// where it looks odd (e.g. `hasAttribute('aria-')`, the empty-anchor skip after the index was used),
// because the prompt must match line for line. Differences that an extension cannot or should not
// copy are named in MIGRATION.md ("Prompt parity with browser_use on Playwright"):
//  - closed shadow roots are entered (chrome.dom.openOrClosedShadowRoot), where page JS sees none;
//  - cross-origin iframes are walked by their own content script (the worker splices them in),
//    where page.evaluate in the top document cannot reach them;
//  - getEventListeners() exists in neither (DevTools console only); an `onclick` *property* set by
//    page JS is invisible to a content script's isolated world (the attribute is seen).
//
// The result is pruned for the wire: a node is kept when it has an index, is a text node that
// clickable_elements_to_string can print (or collect into an indexed element's text), is an iframe,
// or is an ancestor of a kept node. Pruning never changes the printed lines nor the element hashes
// (branch path, attributes, xpath), which depend only on kept nodes and their ancestors.
import type { DomElementNode, DomNode } from '../../../../schemas/generated/protocol';
import { isAgentUiRoot } from '../../shared/agent-ui-marker';
import { topElementAt } from '../interaction/hit-test';
import type { RefRegistry } from '../refs';
import { shadowRootOf } from '../shadow-root';
import { maskPii, type PrivacyOptions, readableTextNode, redactedMarker, sensitiveReason } from '../snapshot/privacy';
import { segmentFromDom } from '../xpath';

export type Flavor = '0.1.48' | '0.1.40';

export interface TreeOptions {
  flavor: Flavor;
  viewportExpansion: number;
  /**
   * The top window's viewport: buildDomTree.js runs in the top document and compares every rect with its size, iframe contents included.
   */
  viewport: { width: number; height: number };
  isTop: boolean;
  /**
   * browser_use's highlight_elements: with it on, 0.1.48 indexes an element inside an indexed one only when it is a distinct interaction.
   */
  highlightElements: boolean;
  /** The state's redaction rules (snapshot/privacy.ts) apply to attribute values and text here too. */
  privacy: PrivacyOptions;
}

export interface BuiltTree {
  tree: DomElementNode;
  /** Local highlight order -> element, for the numbered boxes of a screenshot. */
  highlighted: Element[];
  /** Iframe nodes in tree order: placeholders for the worker (frame_id -(k+1) matches FrameSnapshot.frames[k] by iframe element). */
  iframes: Element[];
}

const HIGHLIGHT_CONTAINER_ID = 'playwright-highlight-container';
const ALWAYS_ACCEPT = new Set(['body', 'div', 'main', 'article', 'section', 'nav', 'header', 'footer']);
const LEAF_DENY = new Set(['svg', 'script', 'style', 'link', 'meta', 'noscript', 'template']);

// 0.1.48 isInteractiveElement
const INTERACTIVE_CURSORS = new Set([
  'pointer',
  'move',
  'text',
  'grab',
  'grabbing',
  'cell',
  'copy',
  'alias',
  'all-scroll',
  'col-resize',
  'context-menu',
  'crosshair',
  'e-resize',
  'ew-resize',
  'help',
  'n-resize',
  'ne-resize',
  'nesw-resize',
  'ns-resize',
  'nw-resize',
  'nwse-resize',
  'row-resize',
  's-resize',
  'se-resize',
  'sw-resize',
  'vertical-text',
  'w-resize',
  'zoom-in',
  'zoom-out',
]);
const NON_INTERACTIVE_CURSORS = new Set(['not-allowed', 'no-drop', 'wait', 'progress', 'initial', 'inherit']);
const INTERACTIVE_TAGS_48 = new Set([
  'a',
  'button',
  'input',
  'select',
  'textarea',
  'details',
  'summary',
  'label',
  'option',
  'optgroup',
  'fieldset',
  'legend',
]);
const INTERACTIVE_ROLES_48 = new Set([
  'button',
  'menuitemradio',
  'menuitemcheckbox',
  'radio',
  'checkbox',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'combobox',
  'searchbox',
  'textbox',
  'option',
  'scrollbar',
]);
const DISTINCT_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary', 'details', 'label', 'option']);
const DISTINCT_ROLES = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemradio',
  'menuitemcheckbox',
  'radio',
  'checkbox',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'combobox',
  'searchbox',
  'textbox',
  'listbox',
  'option',
  'scrollbar',
]);
const DISTINCT_EVENT_ATTRS = ['onmousedown', 'onmouseup', 'onkeydown', 'onkeyup', 'onsubmit', 'onchange', 'oninput', 'onfocus', 'onblur'];
const MOUSE_ATTRS = ['onclick', 'onmousedown', 'onmouseup', 'ondblclick'];
const CANDIDATE_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'details', 'summary']);

// 0.1.40 isInteractiveElement
const INTERACTIVE_TAGS_40 = new Set([
  'a',
  'button',
  'details',
  'embed',
  'input',
  'menu',
  'menuitem',
  'object',
  'select',
  'textarea',
  'canvas',
  'summary',
]);
const INTERACTIVE_ROLES_40 = new Set([
  'button',
  'menu',
  'menuitem',
  'link',
  'checkbox',
  'radio',
  'slider',
  'tab',
  'tabpanel',
  'textbox',
  'combobox',
  'grid',
  'listbox',
  'option',
  'progressbar',
  'scrollbar',
  'searchbox',
  'switch',
  'tree',
  'treeitem',
  'spinbutton',
  'tooltip',
  'a-button-inner',
  'a-dropdown-button',
  'click',
  'menuitemcheckbox',
  'menuitemradio',
  'a-button-text',
  'button-text',
  'button-icon',
  'button-icon-only',
  'button-text-icon-only',
  'dropdown',
]);

/** A built node: kept for the wire, or built and pruned (it still counts as a child for the empty-anchor rule). */
type Raw = { el: DomElementNode } | { text: DomNode & { kind: 'text' } } | { pruned: true };

export class BrowserUseTree {
  private highlightIndex = 0;
  private readonly styles = new Map<Element, CSSStyleDeclaration>();
  private readonly xpaths = new Map<Element, string>();
  private readonly highlighted: Element[] = [];
  private readonly iframes: Element[] = [];
  private readonly exp: number;
  private readonly vw: number;
  private readonly vh: number;
  private readonly v40: boolean;

  constructor(
    private readonly refs: RefRegistry,
    private readonly opts: TreeOptions,
  ) {
    this.exp = opts.viewportExpansion;
    this.vw = opts.viewport.width;
    this.vh = opts.viewport.height;
    this.v40 = opts.flavor === '0.1.40';
  }

  build(): BuiltTree {
    let tree: DomElementNode;
    if (this.opts.isTop) {
      // buildDomTree(document.body): the root is {tagName 'body', attributes {}, xpath '/body'}, no flags.
      const body = document.body;
      const children: DomNode[] = [];
      if (body) for (const c of body.childNodes) this.push(children, this.node(c, false, false));
      tree = {
        kind: 'element',
        tag: 'body',
        xpath: '/body',
        attributes: {},
        is_visible: false,
        is_interactive: false,
        is_top_element: false,
        is_in_viewport: false,
        shadow_root: false,
        children,
      };
    } else {
      // An iframe's document: its childNodes (the <html> element), as buildDomTree recurses into iframeDoc.childNodes.
      const html = document.documentElement;
      const got = html ? this.node(html, false, false) : null;
      tree =
        got && 'el' in got
          ? got.el
          : {
              kind: 'element',
              tag: 'html',
              xpath: 'html',
              attributes: {},
              is_visible: false,
              is_interactive: false,
              is_top_element: false,
              is_in_viewport: false,
              shadow_root: false,
              children: [],
            };
    }
    return { tree, highlighted: this.highlighted, iframes: this.iframes };
  }

  private push(into: DomNode[], r: Raw | null): void {
    if (!r || 'pruned' in r) return;
    into.push('el' in r ? r.el : r.text);
  }

  private style(el: Element): CSSStyleDeclaration {
    let s = this.styles.get(el);
    if (!s) {
      s = getComputedStyle(el);
      this.styles.set(el, s);
    }
    return s;
  }

  private outside(r: { top: number; bottom: number; left: number; right: number }): boolean {
    const e = this.exp;
    return r.bottom < -e || r.top > this.vh + e || r.right < -e || r.left > this.vw + e;
  }

  /** getXPathTree(element, true): 0.1.48 writes tag[n] whenever a same-tag sibling exists; 0.1.40 only from the second one on. */
  private xpath(el: Element): string {
    const known = this.xpaths.get(el);
    if (known !== undefined) return known;
    const segs: string[] = [];
    let cur: Element | null = el;
    while (cur) {
      const parent: Node | null = cur.parentNode;
      if (parent instanceof ShadowRoot) break;
      segs.unshift(segmentFromDom(cur, this.v40));
      cur = parent && parent.nodeType === 1 ? (parent as Element) : null;
    }
    const out = segs.join('/');
    this.xpaths.set(el, out);
    return out;
  }

  private isElementVisible(el: Element): boolean {
    const h = el as HTMLElement;
    const s = this.style(el);
    // offsetWidth/offsetHeight: 0 for elements without a layout box (and undefined for SVG elements, never > 0).
    return (h.offsetWidth ?? 0) > 0 && (h.offsetHeight ?? 0) > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  }

  private isTextNodeVisible(t: Text): boolean {
    const parent = t.parentElement;
    if (this.v40) {
      const range = document.createRange();
      range.selectNodeContents(t);
      const r = range.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      if (!parent) return false;
      return !this.outside(r) && parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    }
    if (this.exp === -1) return !!parent && parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const range = document.createRange();
    range.selectNodeContents(t);
    const rects = range.getClientRects();
    if (!rects || rects.length === 0) return false;
    let inView = false;
    for (const r of rects) {
      if (r.width > 0 && r.height > 0 && !this.outside(r)) {
        inView = true;
        break;
      }
    }
    if (!inView) return false;
    return !!parent && parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  }

  private isTopElement(el: Element): boolean {
    if (this.v40) {
      const rect = el.getBoundingClientRect();
      const inView = rect.left < this.vw && rect.right > 0 && rect.top < this.vh && rect.bottom > 0;
      if (!inView) return true;
      if (!this.opts.isTop) return true;
      return this.hitTest(el, rect.left + rect.width / 2, rect.top + rect.height / 2);
    }
    if (this.exp === -1) return true;
    const rects = el.getClientRects();
    if (!rects || rects.length === 0) return false;
    let any = false;
    for (const r of rects) {
      if (r.width > 0 && r.height > 0 && !this.outside(r)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
    // "If we're in an iframe, elements are considered top by default."
    if (!this.opts.isTop) return true;
    const mid = rects[Math.floor(rects.length / 2)] as DOMRect;
    return this.hitTest(el, mid.left + mid.width / 2, mid.top + mid.height / 2);
  }

  private hitTest(el: Element, x: number, y: number): boolean {
    const root = el.getRootNode();
    try {
      if (root instanceof ShadowRoot) {
        const top = topElementAt(root, x, y);
        if (!top) return false;
        for (let cur: Element | null = top; cur; cur = cur.parentElement) if (cur === el) return true;
        return false;
      }
      const top = topElementAt(document, x, y);
      if (!top) return false;
      for (let cur: Element | null = top; cur && cur !== document.documentElement; cur = cur.parentElement) if (cur === el) return true;
      return false;
    } catch {
      return true;
    }
  }

  private isInExpandedViewport(el: Element): boolean {
    if (this.exp === -1) return true;
    if (this.v40) return !this.outside(el.getBoundingClientRect());
    const rects = el.getClientRects();
    if (!rects || rects.length === 0) {
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) return false;
      return !this.outside(b);
    }
    for (const r of rects) {
      if (r.width === 0 || r.height === 0) continue;
      if (!this.outside(r)) return true;
    }
    return false;
  }

  private isInteractive48(el: Element): boolean {
    const tag = el.localName;
    const s = this.style(el);
    if (tag !== 'html' && INTERACTIVE_CURSORS.has(s.cursor)) return true;
    if (INTERACTIVE_TAGS_48.has(tag)) {
      if (NON_INTERACTIVE_CURSORS.has(s.cursor)) return false;
      for (const a of ['disabled', 'readonly'])
        if (el.hasAttribute(a) || el.getAttribute(a) === 'true' || el.getAttribute(a) === '') return false;
      const f = el as HTMLInputElement;
      if (f.disabled || f.readOnly || (el as HTMLElement).inert) return false;
      return true;
    }
    const role = el.getAttribute('role');
    const ariaRole = el.getAttribute('aria-role');
    if (el.getAttribute('contenteditable') === 'true' || (el as HTMLElement).isContentEditable) return true;
    if (
      el.classList &&
      (el.classList.contains('button') ||
        el.classList.contains('dropdown-toggle') ||
        el.getAttribute('data-index') ||
        el.getAttribute('data-toggle') === 'dropdown' ||
        el.getAttribute('aria-haspopup') === 'true')
    )
      return true;
    if ((role !== null && INTERACTIVE_ROLES_48.has(role)) || (ariaRole !== null && INTERACTIVE_ROLES_48.has(ariaRole))) return true;
    // getEventListeners is a DevTools console API: page.evaluate falls back to these attributes too.
    return MOUSE_ATTRS.some((a) => el.hasAttribute(a));
  }

  private isInteractive40(el: Element): boolean {
    const tag = el.localName;
    const role = el.getAttribute('role');
    const ariaRole = el.getAttribute('aria-role');
    const tabIndex = el.getAttribute('tabindex');
    if (
      el.classList.contains('address-input__container__input') ||
      INTERACTIVE_TAGS_40.has(tag) ||
      (role !== null && INTERACTIVE_ROLES_40.has(role)) ||
      (ariaRole !== null && INTERACTIVE_ROLES_40.has(ariaRole)) ||
      (tabIndex !== null && tabIndex !== '-1' && el.parentElement?.localName !== 'body') ||
      el.getAttribute('data-action') === 'a-dropdown-select' ||
      el.getAttribute('data-action') === 'a-dropdown-button'
    )
      return true;
    // element.onclick of page JS is not visible from the isolated world; the attribute is.
    const hasClick =
      el.getAttribute('onclick') !== null || el.hasAttribute('ng-click') || el.hasAttribute('@click') || el.hasAttribute('v-on:click');
    const aria = ['aria-expanded', 'aria-pressed', 'aria-selected', 'aria-checked'].some((a) => el.hasAttribute(a));
    const editable =
      el.getAttribute('contenteditable') === 'true' ||
      (el as HTMLElement).isContentEditable ||
      el.id === 'tinymce' ||
      el.classList.contains('mce-content-body') ||
      (tag === 'body' && (el.getAttribute('data-id') ?? '').startsWith('mce_'));
    const draggable = (el as HTMLElement).draggable || el.getAttribute('draggable') === 'true';
    return aria || hasClick || draggable || editable;
  }

  private isCandidate(el: Element): boolean {
    if (CANDIDATE_TAGS.has(el.localName)) return true;
    return (
      el.hasAttribute('onclick') ||
      el.hasAttribute('role') ||
      el.hasAttribute('tabindex') ||
      el.hasAttribute('aria-') ||
      el.hasAttribute('data-action') ||
      (!this.v40 && el.getAttribute('contenteditable') === 'true')
    );
  }

  private isDistinct(el: Element): boolean {
    const tag = el.localName;
    if (tag === 'iframe' || DISTINCT_TAGS.has(tag)) return true;
    const role = el.getAttribute('role');
    if (role && DISTINCT_ROLES.has(role)) return true;
    if ((el as HTMLElement).isContentEditable || el.getAttribute('contenteditable') === 'true') return true;
    if (el.hasAttribute('data-testid') || el.hasAttribute('data-cy') || el.hasAttribute('data-test')) return true;
    if (el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function') return true;
    return DISTINCT_EVENT_ATTRS.some((a) => el.hasAttribute(a));
  }

  /**
   * parentShown: the tree parent is visible and top. A text node is kept when
   * clickable_elements_to_string can print it (visible: 0.1.40; parent visible and top: 0.1.48) or
   * collect it into an indexed ancestor's text, which takes every text node whatever its visibility.
   */
  private node(n: Node, parentHighlighted: boolean, parentShown: boolean): Raw | null {
    if (n.nodeType === 3) {
      // Card numbers masked here too, also one split over inline elements (privacy.ts).
      const text = (this.opts.privacy.redactCardAndOtp ? readableTextNode(n as Text) : (n.textContent ?? '')).trim();
      if (!text) return null;
      const parent = n.parentElement;
      if (!parent || parent.localName === 'script') return null;
      const is_visible = this.isTextNodeVisible(n as Text);
      if (!is_visible && !parentShown && this.indexedDepth === 0) return { pruned: true };
      return { text: { kind: 'text', text: this.opts.privacy.redactPii ? maskPii(text).text : text, is_visible } };
    }
    if (n.nodeType !== 1) return null;
    const el = n as Element;
    if (el.id === HIGHLIGHT_CONTAINER_ID || isAgentUiRoot(el)) return null;
    const tag = el.localName;
    if (!ALWAYS_ACCEPT.has(tag) && LEAF_DENY.has(tag)) return null;
    if (this.exp !== -1) {
      const rect = el.getBoundingClientRect();
      if (this.v40) {
        if (this.outside(rect)) return null;
      } else {
        const s = this.style(el);
        const fixed = s.position === 'fixed' || s.position === 'sticky';
        const h = el as HTMLElement;
        const hasSize = (h.offsetWidth ?? 0) > 0 || (h.offsetHeight ?? 0) > 0;
        if (!fixed && !hasSize && this.outside(rect)) return null;
      }
    }
    const node: DomElementNode = {
      kind: 'element',
      tag,
      xpath: this.xpath(el),
      attributes: {},
      is_visible: false,
      is_interactive: false,
      is_top_element: false,
      is_in_viewport: false,
      shadow_root: false,
      children: [],
    };
    if (this.isCandidate(el) || tag === 'iframe' || tag === 'body') {
      const sensitive = sensitiveReason(el, this.opts.privacy);
      for (const name of el.getAttributeNames()) {
        const v = el.getAttribute(name) ?? '';
        node.attributes[name] =
          name === 'value' && sensitive ? redactedMarker(sensitive) : this.opts.privacy.redactPii ? maskPii(v).text : v;
      }
    }
    let highlighted = false;
    node.is_visible = this.isElementVisible(el);
    if (node.is_visible) {
      node.is_top_element = this.isTopElement(el);
      if (node.is_top_element) {
        node.is_interactive = this.v40 ? this.isInteractive40(el) : this.isInteractive48(el);
        if (node.is_interactive) {
          if (this.v40) {
            node.is_in_viewport = true;
            this.assign(node, el);
            highlighted = true;
          } else if (!parentHighlighted || this.isDistinct(el)) {
            node.is_in_viewport = this.isInExpandedViewport(el);
            if (node.is_in_viewport || this.exp === -1) {
              this.assign(node, el);
              // 0.1.48 passes "highlighted" down only when it also drew the box (doHighlightElements).
              highlighted = this.opts.highlightElements;
            }
          }
        }
      }
    }
    const kids: Raw[] = [];
    const shown = node.is_visible === true && node.is_top_element === true;
    const add = (c: Node, ph: boolean) => {
      const r = this.node(c, ph, shown);
      if (r) kids.push(r);
    };
    if (node.highlight_index !== undefined) this.indexedDepth++;
    const editable =
      (el as HTMLElement).isContentEditable ||
      el.getAttribute('contenteditable') === 'true' ||
      el.id === 'tinymce' ||
      el.classList.contains('mce-content-body') ||
      (tag === 'body' && (el.getAttribute('data-id') ?? '').startsWith('mce_'));
    if (tag === 'iframe') {
      // The frame's own content script walks its document; the worker puts it here.
      this.iframes.push(el);
      node.frame_id = -this.iframes.length;
    } else if (editable) {
      for (const c of el.childNodes) add(c, highlighted);
    } else {
      const sr = shadowRootOf(el);
      if (sr) {
        node.shadow_root = true;
        for (const c of sr.childNodes) add(c, highlighted);
      }
      if (!sr || !this.v40) for (const c of el.childNodes) add(c, this.v40 ? false : highlighted || parentHighlighted);
    }
    if (node.highlight_index !== undefined) this.indexedDepth--;
    // "Skip empty anchor tags" (its index, if any, stays used). Counted before pruning, as buildDomTree counts every child it built.
    if (tag === 'a' && kids.length === 0 && node.attributes['href'] === undefined) return null;
    for (const k of kids) this.push(node.children, k);
    const keep = node.highlight_index !== undefined || tag === 'iframe' || node.children.length > 0;
    return keep ? { el: node } : { pruned: true };
  }

  private assign(node: DomElementNode, el: Element): void {
    node.highlight_index = this.highlightIndex++;
    node.element_id = this.refs.refFor(el);
    this.highlighted.push(el);
  }

  private indexedDepth = 0;
}

/** The tree of this document in browser_use's form (see the file comment). */
export function buildBrowserUseTree(refs: RefRegistry, opts: TreeOptions): BuiltTree {
  return new BrowserUseTree(refs, opts).build();
}
