// ARIA roles: the explicit role attribute (first token we know) or the implicit role per HTML-AAM
// (https://www.w3.org/TR/html-aam-1.0/#html-element-role-mappings), the subset an agent acts on.

/** Roles that make an element interactive (seed 000 section 5). */
export const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
  'listbox',
  'scrollbar',
  'gridcell',
]);

/** Roles whose accessible name comes from their content (accname 1.2 step 2F, WAI-ARIA "name from: contents"). */
export const NAME_FROM_CONTENT = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'gridcell',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
  'legend',
  'caption',
]);

const KNOWN_ROLES = new Set([
  ...INTERACTIVE_ROLES,
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'caption',
  'cell',
  'code',
  'columnheader',
  'complementary',
  'contentinfo',
  'definition',
  'dialog',
  'directory',
  'document',
  'feed',
  'figure',
  'form',
  'generic',
  'grid',
  'group',
  'heading',
  'img',
  'list',
  'listitem',
  'log',
  'main',
  'marquee',
  'math',
  'menu',
  'menubar',
  'meter',
  'navigation',
  'none',
  'note',
  'paragraph',
  'presentation',
  'progressbar',
  'radiogroup',
  'region',
  'row',
  'rowgroup',
  'rowheader',
  'search',
  'separator',
  'status',
  'table',
  'tablist',
  'tabpanel',
  'term',
  'timer',
  'toolbar',
  'tooltip',
  'tree',
  'treegrid',
]);

function inputRole(el: HTMLInputElement): string {
  const hasList = el.hasAttribute('list');
  switch (el.type) {
    case 'button':
    case 'submit':
    case 'reset':
    case 'image':
    case 'file':
      return 'button';
    case 'hidden':
      return 'none';
    case 'checkbox':
      return el.getAttribute('role') === 'switch' ? 'switch' : 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'search':
      return hasList ? 'combobox' : 'searchbox';
    case 'email':
    case 'tel':
    case 'text':
    case 'url':
    case 'password':
      return hasList ? 'combobox' : 'textbox';
    default:
      return 'textbox'; // date, time, color, ... Chromium exposes them as editable fields
  }
}

/** Sectioning content and roots: header/footer inside them are not page-level landmarks (HTML-AAM). */
const SECTIONING =
  'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const XLINK = 'http://www.w3.org/1999/xlink';

/**
 * A hyperlink's target: href, or on an SVG <a> the older xlink:href (SVG 1.1; SVG 2 accepts both,
 * and Chromium maps either to role link).
 */
export function hasHref(el: Element): boolean {
  return el.hasAttribute('href') || (el.namespaceURI !== HTML_NS && el.hasAttributeNS(XLINK, 'href'));
}

function hasAccessibleNameAttr(el: Element): boolean {
  return !!(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim() || el.getAttribute('title')?.trim());
}

export function implicitRole(el: Element): string {
  switch (el.localName) {
    case 'a':
    case 'area':
      return hasHref(el) ? 'link' : 'generic';
    case 'button':
    case 'summary':
      return 'button';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'datalist':
      return 'listbox';
    case 'textarea':
      return 'textbox';
    case 'option':
      return 'option';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'img':
      // HTML-AAM: alt="" (and no name from elsewhere) is presentational.
      return el.getAttribute('alt') === '' && !hasAccessibleNameAttr(el) ? 'presentation' : 'img';
    case 'svg':
      return 'img';
    case 'ul':
    case 'ol':
    case 'menu':
      return 'list';
    case 'li':
      return 'listitem';
    case 'dt':
      return 'term';
    case 'dd':
      return 'definition';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'search':
      return 'search';
    case 'section':
      return hasAccessibleNameAttr(el) ? 'region' : 'generic';
    case 'table':
      return 'table';
    case 'tr':
      return 'row';
    case 'td': {
      const table = el.closest('table');
      const r = table?.getAttribute('role');
      return r === 'grid' || r === 'treegrid' ? 'gridcell' : 'cell';
    }
    case 'th': {
      const scope = el.getAttribute('scope');
      if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
      if (scope === 'col' || scope === 'colgroup') return 'columnheader';
      // No scope: a header cell in a row that also has data cells heads that row.
      const row = el.parentElement;
      return row && el.closest('thead') === null && [...row.children].some((c) => c.localName === 'td') && row.firstElementChild === el
        ? 'rowheader'
        : 'columnheader';
    }
    case 'thead':
    case 'tbody':
    case 'tfoot':
      return 'rowgroup';
    case 'caption':
      return 'caption';
    case 'dialog':
      return 'dialog';
    case 'fieldset':
    case 'details':
    case 'optgroup':
      return 'group';
    case 'form':
      return hasAccessibleNameAttr(el) ? 'form' : 'generic';
    case 'p':
      return 'paragraph';
    case 'blockquote':
      return 'blockquote';
    case 'code':
      return 'code';
    case 'progress':
      return 'progressbar';
    case 'meter':
      return 'meter';
    case 'output':
      return 'status';
    case 'hr':
      return 'separator';
    case 'iframe':
      return 'iframe';
    case 'article':
      return 'article';
    case 'aside':
      return el.parentElement?.closest(SECTIONING) && !hasAccessibleNameAttr(el) ? 'generic' : 'complementary';
    case 'header':
      return el.closest(SECTIONING) ? 'generic' : 'banner';
    case 'footer':
      return el.closest(SECTIONING) ? 'generic' : 'contentinfo';
    case 'figure':
      return 'figure';
    case 'math':
      return 'math';
    case 'label':
      return 'label';
    default:
      return (el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable ? 'textbox' : 'generic';
  }
}

/** Global ARIA states/properties: their presence makes role=presentation/none ignored (ARIA 1.2, 9.1 conflict resolution). */
const GLOBAL_ARIA = [
  'aria-atomic',
  'aria-busy',
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-details',
  'aria-dropeffect',
  'aria-flowto',
  'aria-grabbed',
  'aria-haspopup',
  'aria-keyshortcuts',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'aria-owns',
  'aria-relevant',
  'aria-roledescription',
];

/** Focusable in the sense of the conflict rule: natively focusable or with a tabindex. */
function focusable(el: Element): boolean {
  if (el.hasAttribute('tabindex')) return true;
  switch (el.localName) {
    case 'a':
    case 'area':
      return hasHref(el);
    case 'button':
    case 'select':
    case 'textarea':
    case 'summary':
    case 'iframe':
      return !(el as HTMLButtonElement).disabled;
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden' && !(el as HTMLInputElement).disabled;
    default:
      return (el as HTMLElement).isContentEditable === true;
  }
}

/**
 * The element's role: the first recognised token of role="...", else the implicit role (HTML-AAM).
 * role=presentation/none is ignored (the next token or the implicit role applies) on a focusable
 * element or one with a global ARIA attribute: WAI-ARIA 1.2 "Presentational Roles Conflict Resolution".
 */
export function roleOf(el: Element): string {
  const attr = el.getAttribute('role');
  if (attr) {
    for (const token of attr.trim().toLowerCase().split(/\s+/)) {
      if (!KNOWN_ROLES.has(token)) continue;
      if ((token === 'presentation' || token === 'none') && (focusable(el) || GLOBAL_ARIA.some((a) => el.hasAttribute(a)))) continue;
      return token === 'none' ? 'presentation' : token;
    }
  }
  return implicitRole(el);
}

/** Presentational: no native text alternative is used for it (accname 2E), its content still counts. */
export function isPresentational(el: Element, role: string = roleOf(el)): boolean {
  return role === 'presentation' || role === 'none';
}
