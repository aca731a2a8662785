// A page a CDP client holds opened a tab or window (window.open, a target=_blank link, a form with a
// target): Chrome's own endpoint announces it to the client at once (Target.targetCreated, and
// attachedToTarget under auto-attach, with openerId), and Playwright's 'popup' and puppeteer's
// 'targetcreated' events rest on that. The extension only tells the bridge what happened, as a
// cdp_event on the opener's tab with a method Chrome never sends (POPUP_EVENT); whether the client
// gets the new tab is the bridge's to decide (its lease and tab limit), and cdp_attach then checks the
// person's policy for the tab's site as for any tab a client takes; a tab on its way to a site out of
// the client's scope is not reported at all (it has not committed that site when cdp_attach looks).
// https://chromedevtools.github.io/devtools-protocol/tot/Target/#type-TargetInfo
import type { PopupOpenedParams } from '../../../../schemas/lib/cdp-popup-event';
import { scopeWhenRead } from '../policy/person-policy';
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
  // url: where the new tab is going. A site out of the client's scope is never reported: the tab has
  // not committed it yet when the bridge would attach it, so cdp_attach could not tell.
  const report = async (openerTabId: number, tabId: number, url: string, mainFrame: boolean | undefined) => {
    if (reported.has(tabId) || !relayHolds(openerTabId) || relayHolds(tabId)) return;
    reported.add(tabId);
    if (reported.size > REPORTED_MAX) reported.delete(reported.values().next().value as number);
    if (url !== '' && (await scopeWhenRead(url))) return;
    send(openerTabId, { tab_id: tabId, ...(mainFrame === undefined ? {} : { main_frame: mainFrame }) });
  };
  chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => void report(d.sourceTabId, d.tabId, d.url, d.sourceFrameId === 0));
  chrome.tabs.onCreated.addListener((t) => {
    const { id, openerTabId } = t;
    if (id === undefined || openerTabId === undefined || !relayHolds(openerTabId)) return;
    setTimeout(() => {
      if (reported.has(id)) return;
      void chrome.tabs.get(id).then(
        (now) => report(openerTabId, id, now.url || now.pendingUrl || '', undefined),
        () => undefined, // closed meanwhile
      );
    }, FRAME_WAIT_MS);
  });
}
