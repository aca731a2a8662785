// A page a CDP client holds opened a tab or window (window.open, a target=_blank link, a form with a
// target): Chrome's own endpoint announces it to the client at once (Target.targetCreated, and
// attachedToTarget under auto-attach, with openerId), and Playwright's 'popup' and puppeteer's
// 'targetcreated' events rest on that. The extension only tells the bridge what happened, as a
// cdp_event on the opener's tab with a method Chrome never sends (POPUP_EVENT); whether the client
// gets the new tab is the bridge's to decide (its lease and tab limit), and cdp_attach then checks the
// person's policy for the tab's site as for any tab a client takes.
// https://chromedevtools.github.io/devtools-protocol/tot/Target/#type-TargetInfo
import type { PopupOpenedParams } from '../../../../schemas/lib/cdp-popup-event';
import { relayHolds } from './debugger-attachments';

/**
 * webNavigation.onCreatedNavigationTarget names the opening frame (Chrome's openerFrameId is the
 * main frame's id when main_frame) but fires only for a new tab that navigates; tabs.onCreated with
 * an openerTabId also covers window.open() with no URL. Whichever comes first announces the tab; the
 * other waits this long for the frame to be known.
 */
const FRAME_WAIT_MS = 150;
/** New tabs already reported (a tab id is never reused while the browser runs; kept small anyway). */
const reported = new Set<number>();
const REPORTED_MAX = 256;

/** No URL: the bridge learns it from cdp_attach, whose answer passes the worker's redactor. */
type Send = (openerTabId: number, params: PopupOpenedParams) => void;

/** Registered at the worker's top level (cdp-relay.ts installCdpRelay), as every listener is. */
export function installPopupWatch(send: Send): void {
  const report = (openerTabId: number, tabId: number, mainFrame: boolean | undefined) => {
    if (reported.has(tabId) || !relayHolds(openerTabId) || relayHolds(tabId)) return;
    reported.add(tabId);
    if (reported.size > REPORTED_MAX) reported.delete(reported.values().next().value as number);
    send(openerTabId, { tab_id: tabId, ...(mainFrame === undefined ? {} : { main_frame: mainFrame }) });
  };
  chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => report(d.sourceTabId, d.tabId, d.sourceFrameId === 0));
  chrome.tabs.onCreated.addListener((t) => {
    const { id, openerTabId } = t;
    if (id === undefined || openerTabId === undefined || !relayHolds(openerTabId)) return;
    setTimeout(() => report(openerTabId, id, undefined), FRAME_WAIT_MS);
  });
}
