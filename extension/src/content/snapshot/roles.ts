// ARIA roles: the explicit role attribute (first token we know) or the implicit role per HTML-AAM
// (https://www.w3.org/TR/html-aam-1.0/#html-element-role-mappings), the subset an agent acts on.

/** Roles that make an element interactive (issue 3 / seed 000 section 5). */
export const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'listbox', 'scrollbar', 'gridcell',
]);

/** Roles whose accessible name comes from their content (accname 1.2 step 2F, WAI-ARIA "name from: contents"). */
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'legend', 'caption',
]);

const KNOWN_ROLES = new Set([
  ...INTERACTIVE_ROLES, 'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'caption', 'cell', 'code',
  'columnheader', 'complementary', 'contentinfo', 'definition', 'dialog', 'directory', 'document', 'feed', 'figure', 'form',
  'generic', 'grid', 'group', 'heading', 'img', 'list', 'listitem', 'log', 'main', 'marquee', 'math', 'menu', 'menubar',
  'meter', 'navigation', 'none', 'note', 'paragraph', 'presentation', 'progressbar', 'radiogroup', 'region', 'row',
  'rowgroup', 'rowheader', 'search', 'separator', 'status', 'table', 'tablist', 'tabpanel', 'term', 'timer', 'toolbar',
  'tooltip', 'tree', 'treegrid',
]);

function inputRole(el: HTMLInputElement): string {
  const hasList = el.hasAttribute('list');
  switch (el.type) {
    case 'button': case 'submit': case 'reset': case 'image': case 'file':
      return 'button';
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
    case 'email': case 'tel': case 'text': case 'url': case 'password':
      return hasList ? 'combobox' : 'textbox';
    default:
      return 'textbox'; // date, time, color, ... Chromium exposes them as editable fields
  }
}

export function implicitRole(el: Element): string {
  switch (el.localName) {
    case 'a': case 'area':
      return el.hasAttribute('href') ? 'link' : 'generic';
    case 'button': case 'summary':
      return 'button';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'textarea':
      return 'textbox';
    case 'option':
      return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return 'heading';
    case 'img':
      return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'ul': case 'ol': case 'menu':
      return 'list';
    case 'li':
      return 'listitem';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'table':
      return 'table';
    case 'tr':
      return 'row';
    case 'td':
      return 'cell';
    case 'th':
      return 'columnheader';
    case 'thead': case 'tbody': case 'tfoot':
      return 'rowgroup';
    case 'dialog':
      return 'dialog';
    case 'fieldset': case 'details': case 'optgroup':
      return 'group';
    case 'form':
      return 'form';
    case 'p':
      return 'paragraph';
    case 'progress':
      return 'progressbar';
    case 'meter':
      return 'meter';
    case 'hr':
      return 'separator';
    case 'iframe':
      return 'iframe';
    case 'article':
      return 'article';
    case 'aside':
      return 'complementary';
    case 'header':
      return 'banner';
    case 'footer':
      return 'contentinfo';
    case 'label':
      return 'label';
    default:
      return (el as HTMLElement).isContentEditable && !(el.parentElement as HTMLElement | null)?.isContentEditable ? 'textbox' : 'generic';
  }
}

/** The element's role: first recognised token of role="...", else the implicit role. */
export function roleOf(el: Element): string {
  const attr = el.getAttribute('role');
  if (attr) {
    for (const token of attr.trim().toLowerCase().split(/\s+/)) if (KNOWN_ROLES.has(token)) return token;
  }
  return implicitRole(el);
}
