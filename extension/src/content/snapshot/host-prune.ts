// Viewport scope: may the walk skip a shadow host that lies wholly outside the (expanded) viewport,
// without entering its shadow root or its light children? Only when nothing inside it can be seen
// outside its box, so that skipping it changes nothing the state lists:
//   - the host clips its content (overflow not visible on both axes: in-flow overflow, negative
//     margins, transformed or relatively offset descendants and, the host being positioned,
//     absolutely positioned ones all paint inside its padding box; slotted content renders inside
//     the shadow tree, so inside the host too), or it has paint containment (clips everything);
//   - nothing inside can be position:fixed (relative to the viewport, it escapes every clip but a
//     containing block for fixed boxes): no style source that reaches the inside sets it;
//   - nothing inside is in the top layer (an open modal dialog or popover paints over the page).
// display:contents hosts have no box (never skipped); a fixed or sticky host is never skipped (the
// walk checks the host's own position). Sticky descendants stay inside their containing block,
// which is inside the host. https://drafts.csswg.org/css-overflow-3/#overflow-properties,
// https://drafts.csswg.org/css-position-3/#fixed-cb
import { shadowRootOf } from '../shadow-root';

/** Per snapshot: the answers for style sheets shared by many roots (lit-style adoptedStyleSheets), and per <style> text. */
export class HostPruner {
  private readonly sheets = new WeakMap<CSSStyleSheet, boolean>();
  /** The shadow roots met, nested ones inside a skipped host included (their changes may let content out). */
  readonly met: ShadowRoot[] = [];

  /** May the walk skip host (its box wholly outside the scope, its style `style`), given its shadow root sr? */
  canSkip(host: Element, style: CSSStyleDeclaration, sr: ShadowRoot): boolean {
    const position = style.position;
    if (position === 'fixed' || position === 'sticky') return false;
    // A fullscreen element is in the top layer too (document.fullscreenElement is its host here).
    if (document.fullscreenElement !== null) return false;
    const paintContained = /\b(paint|strict|content)\b/.test(style.contain) || style.contentVisibility === 'hidden';
    if (!paintContained) {
      if (style.overflowX === 'visible' || style.overflowY === 'visible') return false;
      // overflow:clip may paint past the box by overflow-clip-margin.
      const margin = style.getPropertyValue('overflow-clip-margin');
      if ((style.overflowX === 'clip' || style.overflowY === 'clip') && margin !== '' && margin !== '0px') return false;
      // Not positioned: an absolutely positioned descendant's containing block may lie outside the host.
      if (position === 'static' && style.transform === 'none') return false;
    }
    return !this.fixedInside(host, sr, 0);
  }

  /**
   * Could an element inside host (its shadow tree, nested shadow trees, its light children) be
   * position:fixed or in the top layer? Conservative: any doubt answers yes. One pass over each
   * tree; attributes are looked at only on elements that have some (most shadow content has few).
   */
  private fixedInside(host: Element, sr: ShadowRoot, depth: number): boolean {
    if (depth > 8) return true;
    // The shadow tree's own sheets (constructed and <style>/<link>).
    for (const s of sr.adoptedStyleSheets) if (this.sheetMayFix(s)) return true;
    for (const s of sr.styleSheets) if (this.sheetMayFix(s)) return true;
    // Inline styles, ::part() rules from outside, top layer, nested hosts.
    for (const el of sr.querySelectorAll('*')) if (this.elementMayFix(el, depth, true)) return true;
    // Light children are styled by the host's own scope: ask their computed style.
    if (host.firstElementChild !== null) for (const el of host.querySelectorAll('*')) if (this.elementMayFix(el, depth, false)) return true;
    return false;
  }

  private elementMayFix(el: Element, depth: number, inShadow: boolean): boolean {
    if (!inShadow) {
      if (getComputedStyle(el).position === 'fixed') return true;
    } else if (el.hasAttributes()) {
      if (el.hasAttribute('style') && (el instanceof HTMLElement || el instanceof SVGElement)) {
        const p = el.style.position;
        if (p === 'fixed' || p.includes('var(')) return true;
      }
      if (el.hasAttribute('part') && getComputedStyle(el).position === 'fixed') return true;
    }
    // The top layer (open popovers, modal dialogs) paints over everything, wherever its element sits.
    if ((el.localName === 'dialog' || el.hasAttribute('popover')) && el.matches(':modal, :popover-open')) return true;
    const nested = shadowRootOf(el);
    if (nested) this.met.push(nested);
    return nested !== null && this.fixedInside(el, nested, depth + 1);
  }

  /** Does a rule of the sheet (at any depth: @media, @supports, @layer, nesting) set position to fixed or to a variable? */
  private sheetMayFix(sheet: CSSStyleSheet): boolean {
    const known = this.sheets.get(sheet);
    if (known !== undefined) return known;
    let out = false;
    try {
      out = rulesMayFix(sheet.cssRules);
    } catch {
      out = true; // a cross-origin sheet: its rules cannot be read
    }
    this.sheets.set(sheet, out);
    return out;
  }
}

function rulesMayFix(rules: CSSRuleList): boolean {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i] as CSSRule;
    if (r instanceof CSSStyleRule) {
      const p = r.style.position;
      if (p === 'fixed' || p.includes('var(')) return true;
    }
    if ('cssRules' in r && rulesMayFix((r as CSSGroupingRule).cssRules)) return true;
    if (r instanceof CSSImportRule && r.styleSheet) {
      try {
        if (rulesMayFix(r.styleSheet.cssRules)) return true;
      } catch {
        return true;
      }
    }
  }
  return false;
}
