// What the document's style sheets say, read once for a walk: which elements can have ::before/
// ::after content (the name computation reads a pseudo-element's style only there, accname.ts), and
// which can be made visible again inside a visibility:hidden ancestor (the walk skips a hidden
// subtree that holds none of them, hidden-prune.ts). Reading every rule of every sheet costs more than one walk can afford
// per name, so the answer is cached ~1 s, or until the number of sheets changes or a cross-origin
// sheet's rules arrive (external-sheets.ts), and pinned for the length of one synchronous walk.
import { collectSheetFacts, externalSheetFacts, externalSheetsVersion, type SheetFacts } from './external-sheets';
import { sheetLoadFailed } from './sheet-errors';

export interface DocumentSheetFacts {
  /** The elements that can have ::before/::after boxes; '' = none; null = unknown (check every element). */
  pseudoSelector: string | null;
  /**
   * The elements a rule sets visibility on to a value that shows again (visible, initial, a
   * var()...), whatever state or media the rule waits for; '' = none; null = unknown (a sheet not
   * known yet, or a selector that does not parse). Inline styles, SVG attributes, shadow trees and
   * animations are not in it (hidden-prune.ts checks those).
   */
  reshowSelector: string | null;
}

let cache: { at: number; count: number; external: number; facts: DocumentSheetFacts } | null = null;
/** The facts pinned for one walk; undefined outside a walk. */
let pinned: DocumentSheetFacts | undefined;

/** Adds the sheet's facts to out; false when they cannot be known (yet). */
function readSheet(sheet: CSSStyleSheet, out: SheetFacts): boolean {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    // Another origin's sheet: its rules as the service worker fetched them (external-sheets.ts).
    return sheet.href ? externalSheetFacts(sheet.href, sheetLoadFailed(sheet.ownerNode), out) : false;
  }
  return collectSheetFacts(rules, out, (imported) => readSheet(imported, out));
}

function read(): DocumentSheetFacts {
  const now = performance.now();
  const count = document.styleSheets.length + (document.adoptedStyleSheets?.length ?? 0);
  const external = externalSheetsVersion();
  if (cache && now - cache.at < 1000 && cache.count === count && cache.external === external) return cache.facts;
  const out: SheetFacts = { bases: [], reshow: [] };
  let known = true;
  // Every sheet is looked at, even after one is unknown: each cross-origin one is then asked for
  // at once, not one per walk.
  for (const sheet of [...document.styleSheets, ...(document.adoptedStyleSheets ?? [])]) if (!readSheet(sheet, out)) known = false;
  const facts: DocumentSheetFacts = {
    pseudoSelector: known ? selectorOf(out.bases) : null,
    reshowSelector: known ? selectorOf(out.reshow) : null,
  };
  cache = { at: now, count, external, facts };
  return facts;
}

/** One selector list for parts; null when it does not parse (a part cut wrongly: nesting, :is() lists). */
function selectorOf(parts: string[]): string | null {
  const selector = [...new Set(parts)].join(',');
  if (!selector) return '';
  try {
    document.documentElement.matches(selector);
  } catch {
    return null;
  }
  return selector;
}

/** The document's sheet facts: the pinned ones inside a walk (withSheetFactsPinned), read (or cached) outside. */
export function sheetFacts(): DocumentSheetFacts {
  return pinned ?? read();
}

/** Runs fn with the facts read once (the document's sheets do not change during a synchronous walk). */
export function withSheetFactsPinned<T>(fn: () => T): T {
  pinned = read();
  try {
    return fn();
  } finally {
    pinned = undefined;
  }
}
