// What style sheets from another origin say (sheet-facts.ts): their ::before/::after selectors and
// whether they ever make a visibility:hidden element's descendants visible again. The page's CSSOM
// hides their rules (cssRules throws SecurityError), so without them the name computation
// (accname.ts) could only read the generated content of every named element and its descendants
// (two pseudo-element style resolutions each, about a fifth of a whole-page walk on a news page
// whose CSS comes from a CDN), and the walk would enter every visibility:hidden subtree.
//
// The first walk that meets such a sheet asks the service worker for its text (background/
// sheet-text.ts) and goes on as if it could say anything; the answer is parsed here, in a constructed
// CSSStyleSheet that is never attached to the page, and later walks of this document use it. Nothing
// is fetched until an agent reads a state, and only URLs the page itself requested (its resource
// timing lists them) or that such a sheet @imports.
//
// A sheet that failed to load for the page (its <link> fired error) and cannot be fetched either
// (no response at all, or an HTTP error) has no rules. A link's error also fires when only an
// @import of the sheet failed, so the page's error alone does not say that.
import type { SheetTextRequest, SheetTextResponse } from '../../shared/sheet-messages';

/** What the sheets read so far say (collectSheetFacts adds to it). */
export interface SheetFacts {
  /** The selector parts before ::before/::after. */
  bases: string[];
  /**
   * The selectors of rules that set visibility to a value that can show what an ancestor's
   * visibility:hidden hid, pseudo-elements cut off ("*" where the rule has no selector of its own).
   */
  reshow: string[];
}

type Entry =
  | { state: 'pending' }
  | { state: 'unknown' }
  /** imports: the URLs it @imports. */
  | { state: 'parsed'; bases: string[]; reshow: string[]; imports: string[] };

const entries = new Map<string, Entry>();
/** At most this many sheets per document are fetched; others stay unknown (checked per element). */
const MAX_SHEETS = 64;
/** Imports nested deeper than this are not followed. */
const MAX_DEPTH = 4;
let version = 0;

/** Changes whenever a fetched sheet's answer arrives: a selector built before it is stale. */
export function externalSheetsVersion(): number {
  return version;
}

/**
 * Adds what a cross-origin sheet and the sheets it imports say to out; false while that is unknown
 * (not fetched yet, or it cannot be). ownerFailed: its <link> fired error (sheet-errors.ts).
 */
export function externalSheetFacts(href: string, ownerFailed: boolean, out: SheetFacts): boolean {
  return collect(href, ownerFailed, 0, new Set(), out);
}

function collect(href: string, ownerFailed: boolean, depth: number, seen: Set<string>, out: SheetFacts): boolean {
  if (seen.has(href)) return true; // an import cycle adds nothing new
  seen.add(href);
  const entry = entries.get(href) ?? request(href, ownerFailed, depth > 0);
  if (entry.state !== 'parsed') return false;
  out.bases.push(...entry.bases);
  out.reshow.push(...entry.reshow);
  if (entry.imports.length && depth >= MAX_DEPTH) return false;
  return entry.imports.every((u) => collect(u, false, depth + 1, seen, out));
}

/** imported: named by an @import of a sheet the page loaded (the browser loads it for the page; resource timing does not list it). */
function request(href: string, ownerFailed: boolean, imported: boolean): Entry {
  // Outside the extension (the name cases run this file alone in a plain page) nothing can fetch.
  const runtime = typeof chrome === 'undefined' ? undefined : chrome.runtime;
  if (!runtime?.sendMessage || entries.size >= MAX_SHEETS || !/^https?:/i.test(href) || !(imported || requestedByPage(href)))
    return remember(href, { state: 'unknown' });
  const pending = remember(href, { state: 'pending' });
  const message: SheetTextRequest = { bux: 'sheet_text', url: href };
  runtime.sendMessage(message).then(
    (r: SheetTextResponse | undefined) => settle(href, r ? entryOf(href, r, ownerFailed) : { state: 'unknown' }),
    () => settle(href, { state: 'unknown' }),
  );
  return pending;
}

function remember(href: string, entry: Entry): Entry {
  entries.set(href, entry);
  return entry;
}

function settle(href: string, entry: Entry): void {
  entries.set(href, entry);
  version++;
}

/** The page fetched this URL itself (a sheet it links or imports): the worker never originates a request the page did not make. */
function requestedByPage(href: string): boolean {
  return performance.getEntriesByName(href, 'resource').length > 0;
}

/** A sheet known to hold no rules (it failed for the page and for the worker). */
const EMPTY: Entry = Object.freeze({ state: 'parsed', bases: [], reshow: [], imports: [] });

function entryOf(href: string, r: SheetTextResponse, ownerFailed: boolean): Entry {
  if (!r.ok) {
    // The page's load failed and ours does too: the page's sheet is empty.
    return ownerFailed && (r.reason === 'network' || r.reason === 'status') ? EMPTY : { state: 'unknown' };
  }
  // Not served as CSS: a browser in standards mode did not apply it (the link failed); otherwise
  // it is not what the page got (a login page instead of the sheet), so it says nothing.
  if (!r.css) return ownerFailed ? EMPTY : { state: 'unknown' };
  return parseSheet(href, r.text);
}

// @import url("x") ...;  @import "x" ...;  (a constructed sheet ignores @import, so they are taken out and fetched on their own)
const IMPORT = /@import\s+(?:url\(\s*(["']?)([^"')]+)\1\s*\)|(["'])((?:(?!\3).)+)\3)[^;]*;?/gi;

function parseSheet(href: string, text: string): Entry {
  const imports: string[] = [];
  const body = text.replace(IMPORT, (_m, _q1: string, a: string | undefined, _q2: string, b: string | undefined) => {
    try {
      imports.push(new URL((a ?? b ?? '').trim(), href).href);
    } catch {
      // an import URL that does not parse loads nothing
    }
    return '';
  });
  const facts: SheetFacts = { bases: [], reshow: [] };
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(body);
    if (!collectSheetFacts(sheet.cssRules, facts)) return { state: 'unknown' };
  } catch {
    return { state: 'unknown' };
  }
  return { state: 'parsed', bases: facts.bases, reshow: facts.reshow, imports };
}

const PSEUDO = /::?(before|after)\b/i;

/**
 * Visibility values that keep what an ancestor's visibility:hidden hid hidden: hidden and collapse
 * hide, inherit and unset (visibility is inherited) take the hidden parent's. Anything else (visible,
 * initial, revert, revert-layer, a var()) may show it again. The CSSOM expands `all` into its
 * longhands, so `all: initial` reads as visibility `initial` here.
 */
const KEEPS_HIDDEN = new Set(['hidden', 'collapse', 'inherit', 'unset']);

/** Any pseudo-element (::before, ::marker, ::part(x), the legacy one-colon forms) and what follows it. */
const PSEUDO_ELEMENT = /(::[\w-]+(\([^)]*\))?|:(before|after|first-line|first-letter)\b).*$/i;

/** A selector part with its pseudo-element cut off: the elements whose boxes it styles ("*" when that leaves nothing to match). */
const baseOf = (part: string) => {
  const base = part.replace(PSEUDO_ELEMENT, '').trim();
  return base === '' || /[>+~]$/.test(base) ? '*' : base;
};

/**
 * Adds what the rules say to out: the selector parts that create ::before/::after boxes, and the
 * selectors of rules whose declarations set visibility to a value that shows again (a keyframe or a
 * nested declaration block has no selector of its own: "*"), each with the pseudo-element cut off.
 * False when a rule hides what it holds (an @import whose sheet cannot be read: readSheet answers
 * for it).
 */
export function collectSheetFacts(rules: CSSRuleList, out: SheetFacts, readSheet?: (s: CSSStyleSheet) => boolean): boolean {
  for (const rule of rules) {
    if ('style' in rule) {
      const v = (rule as CSSStyleRule).style.getPropertyValue('visibility').trim().toLowerCase();
      if (v !== '' && !KEEPS_HIDDEN.has(v)) {
        if (rule instanceof CSSStyleRule) out.reshow.push(...rule.selectorText.split(',').map(baseOf));
        else out.reshow.push('*');
      }
    }
    if (rule instanceof CSSStyleRule) {
      if (PSEUDO.test(rule.selectorText)) {
        for (const part of rule.selectorText.split(',')) {
          if (!PSEUDO.test(part)) continue;
          out.bases.push(baseOf(part));
        }
      }
      if ('cssRules' in rule && rule.cssRules.length && !collectSheetFacts(rule.cssRules, out, readSheet)) return false; // nested CSS
    } else if (rule instanceof CSSImportRule) {
      // Not loaded (yet), or its rules hidden: only the caller can say (a constructed sheet has no imports).
      if (!rule.styleSheet || !readSheet || !readSheet(rule.styleSheet)) return false;
    } else if ('cssRules' in rule) {
      // Grouping rules (@media, @supports, @layer, @container, @scope) and @keyframes.
      if (!collectSheetFacts((rule as CSSGroupingRule).cssRules, out, readSheet)) return false;
    }
  }
  return true;
}
