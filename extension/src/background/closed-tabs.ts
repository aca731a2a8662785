// What the worker keeps per tab is freed when Chrome says the tab is gone (tabs.onRemoved): the
// last states (state_delta bases), the index map (index targets; memory and storage.session), the
// dom_tree highlights, what a background no-change watch left for the next result, requests in
// flight to child frames, and the ports to the content scripts. Without this, a long-lived worker
// kept every closed tab's maps until it stopped. The worker's entry (index.ts) calls
// installClosedTabs() synchronously at top level, like every other registration. It sits beside the
// entry because it reaches into every room that keeps something per tab.
import { forgetTabLinks, linksHeldFor } from './connection/content-channel';
import { deferredHeldFor, forgetDeferred } from './page-watch/settle-rule';
import { forgetTabState, indexHeldFor } from './state/collect';
import { requestsHeldFor } from './state/frame-liveness';
import { forgetTabStates, statesHeldFor } from './state/state-cache';

/** Frees everything the worker keeps for the tab. */
export async function forgetTab(tabId: number): Promise<void> {
  forgetTabStates(tabId);
  forgetDeferred(tabId);
  forgetTabLinks(tabId);
  await forgetTabState(tabId);
}

/** What the worker keeps for the tab, per kind (0 everywhere once the tab is forgotten). */
export function heldForTab(tabId: number): Record<'states' | 'index' | 'deferred' | 'frame_requests' | 'ports', number> {
  return {
    states: statesHeldFor(tabId),
    index: indexHeldFor(tabId),
    deferred: deferredHeldFor(tabId),
    frame_requests: requestsHeldFor(tabId),
    ports: linksHeldFor(tabId),
  };
}

/** Frees a tab's keep when Chrome says the tab is gone. */
export function installClosedTabs(): void {
  chrome.tabs.onRemoved.addListener((tabId) => void forgetTab(tabId).catch(() => undefined));
}
