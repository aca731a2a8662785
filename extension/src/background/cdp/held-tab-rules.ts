// A blocked site never loads in a tab an agent holds: Chrome's own network rules
// (declarativeNetRequest session rules, limited to the held tabs' ids) refuse the page and frame
// requests to sites the person blocked (or did not allow, when they keep an allow list). So the
// navigation is stopped before it commits, whatever started it: Page.navigate is judged before it is
// sent, but a link, a form, a page's script, a server redirect, history, or a frame the page adds are
// not, and the rule catches them all. Nothing of such a page reaches the agent (no response, no
// cookie set, no frame to attach to); the tab shows Chrome's "blocked" page. Tabs the person uses
// themselves are not touched.
//
// What network rules cannot see (an extension page, chrome://, a local file) is stopped by
// cdp-scope.ts and the actions' own checks.
import { onPolicyChanged, policySettings } from '../policy/person-policy';

const BLOCKED_RULE = 1;
const NOT_ALLOWED_RULE = 2;
/** Rules for "*.example.com" patterns (subdomains only), one each, from this id on. */
const WILDCARD_RULES_FROM = 100;

type Rule = chrome.declarativeNetRequest.Rule;
const FRAMES = ['main_frame', 'sub_frame'] as chrome.declarativeNetRequest.ResourceType[];
const BLOCK = { type: 'block' } as chrome.declarativeNetRequest.RuleAction;

let heldTabs: number[] = [];
let chain: Promise<unknown> = Promise.resolve();

/** The tabs agents hold changed (the bridge's leases, a CDP client's attach). Resolves when Chrome has the rules. */
export function setHeldTabs(tabIds: Iterable<number>): Promise<unknown> {
  const next = [...new Set(tabIds)].sort((a, b) => a - b);
  if (next.length === heldTabs.length && next.every((t, i) => t === heldTabs[i])) return chain;
  heldTabs = next;
  return apply();
}

/** One tab more (a tab an agent opens or a CDP client attaches, before the bridge's next lease list names it). */
export function addHeldTab(tabId: number): Promise<unknown> {
  return heldTabs.includes(tabId) ? chain : setHeldTabs([...heldTabs, tabId]);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The rules for these tabs and the person's site lists (exported for the tests of its shape). */
export function rulesFor(tabIds: number[], blocked: readonly string[], allowed: readonly string[]): Rule[] {
  if (tabIds.length === 0) return [];
  const rules: Rule[] = [];
  const plain = blocked.filter((p) => !p.startsWith('*.'));
  if (plain.length)
    rules.push({ id: BLOCKED_RULE, priority: 1, action: BLOCK, condition: { tabIds, requestDomains: plain, resourceTypes: FRAMES } });
  blocked
    .filter((p) => p.startsWith('*.'))
    .forEach((p, i) =>
      rules.push({
        id: WILDCARD_RULES_FROM + i,
        priority: 1,
        action: BLOCK,
        // Subdomains only, as hostMatches reads "*.example.com".
        condition: {
          tabIds,
          regexFilter: `^[a-z]+://([^/?#@]*@)?[^/?#@:]+\\.${escapeRegex(p.slice(2))}(:[0-9]+)?([/?#]|$)`,
          resourceTypes: FRAMES,
        },
      }),
    );
  if (allowed.length)
    rules.push({
      id: NOT_ALLOWED_RULE,
      priority: 1,
      action: BLOCK,
      // "*.example.com" allows subdomains; excluding example.com's requests as a whole is the closest
      // a domain list can say, and the navigation and frame checks judge the exact rule after.
      condition: { tabIds, excludedRequestDomains: allowed.map((p) => p.replace(/^\*\./, '')), resourceTypes: FRAMES },
    });
  return rules;
}

function apply(): Promise<unknown> {
  chain = chain
    .then(async () => {
      const p = await policySettings();
      const rules = rulesFor(heldTabs, p.blocked, p.allowed);
      const existing = await chrome.declarativeNetRequest.getSessionRules();
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: existing.map((r) => r.id), addRules: rules });
    })
    .catch((e: unknown) => console.warn('[browser-use-ext] could not set the network rules for held tabs', e));
  return chain;
}

/** Registered once when the worker starts: the rules follow the person's settings. */
export function installHeldTabRules(): void {
  onPolicyChanged(() => void apply());
}
