// Which of the page's CSS :hover rules a real pointer over an element would switch on. Synthetic
// mouse events cannot set :hover (only the browser's own pointer tracking does), so a hover done
// with them says how much of the page's hover styling it could not reach: a menu shown only by
// `.nav li:hover > ul` stays hidden, one opened by a mouseenter handler opens.
import { composedParent } from './dom';

/** At most this many :hover rules are examined (a page's style sheets can hold tens of thousands of rules). */
const MAX_HOVER_RULES = 2000;

export interface HoverRules {
  /** :hover rules whose hovered part matches the element or one of its (composed) ancestors. */
  count: number;
  /** The first such selector, for the message. */
  example?: string;
}

/** Splits a selector list at its top-level commas (not inside :is(a, b), [attr="a,b"] or strings). */
function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out;
}

/**
 * The part of a complex selector up to the end of the compound that holds :hover, with :hover made
 * neutral: "nav li:hover > ul" -> "nav li:is(*)". That is what the hovered element (or an ancestor
 * of it: :hover applies to the whole chain) must match for the rule to switch on.
 */
function hoveredPart(selector: string): string | null {
  const at = selector.search(/:hover(?![\w-])/);
  // A nested rule's "&" means its parent rule's selector, which matches() would read as :scope.
  if (at < 0 || selector.includes('&')) return null;
  let depth = 0;
  let end = selector.length;
  for (let i = at + ':hover'.length; i < selector.length; i++) {
    const c = selector[i] as string;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && /[\s>+~]/.test(c)) {
      end = i;
      break;
    }
  }
  return selector.slice(0, end).replace(/:hover(?![\w-])/g, ':is(*)');
}

function* styleRules(rules: CSSRuleList, budget: { left: number }): Generator<CSSStyleRule> {
  for (const rule of rules) {
    if (budget.left <= 0) return;
    if (rule instanceof CSSStyleRule) {
      if (rule.selectorText.includes(':hover')) {
        budget.left--;
        yield rule;
      }
    } else if (rule instanceof CSSMediaRule) {
      if (matchMedia(rule.media.mediaText).matches) yield* styleRules(rule.cssRules, budget);
    } else if (rule instanceof CSSGroupingRule) {
      // @supports, @layer, @container, @scope: counted as if they applied (a hint, not a promise).
      yield* styleRules(rule.cssRules, budget);
    }
  }
}

function sheetsOf(root: Document | ShadowRoot): CSSStyleSheet[] {
  return [...root.styleSheets, ...(root.adoptedStyleSheets ?? [])];
}

/** The page's :hover rules (same-origin sheets of the element's document and shadow roots) that hovering el would switch on. */
export function hoverRulesFor(el: Element): HoverRules {
  const chain: Element[] = [];
  for (let n: Element | null = el; n; n = composedParent(n)) chain.push(n);
  const roots = new Set<Document | ShadowRoot>();
  for (const n of chain) {
    const root = n.getRootNode();
    if (root instanceof Document || root instanceof ShadowRoot) roots.add(root);
  }
  const found: HoverRules = { count: 0 };
  const budget = { left: MAX_HOVER_RULES };
  for (const root of roots) {
    for (const sheet of sheetsOf(root)) {
      let rules: CSSRuleList;
      try {
        rules = sheet.cssRules;
      } catch {
        continue; // a cross-origin sheet: its rules cannot be read
      }
      for (const rule of styleRules(rules, budget)) {
        const hit = splitSelectorList(rule.selectorText).find((sel) => {
          const part = hoveredPart(sel);
          if (!part) return false;
          return chain.some((n) => {
            try {
              return n.matches(part);
            } catch {
              return false; // a selector this engine cannot match by itself (":host:hover", nesting)
            }
          });
        });
        if (hit) {
          found.count++;
          found.example ??= hit;
        }
      }
    }
  }
  return found;
}
