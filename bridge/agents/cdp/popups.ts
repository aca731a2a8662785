// A page the client holds opened a tab or window (the extension's POPUP_EVENT on the opener's tab):
// the new tab joins the client as Chrome's own endpoint has it join, announced with targetCreated
// (discovering scopes) and attachedToTarget (auto-attach) carrying openerId, so Playwright's 'popup'
// and context 'page' events and puppeteer's 'targetcreated' fire. The tab is taken with cdp_attach,
// so the bridge decides: it leases the tab (within the client's tab limit, refusing past it rather
// than letting go of a page the client holds), and the extension attaches only a site the person's
// policy allows. A popup not taken stays the person's and the client hears nothing of it, as a
// client hears nothing of targets it may not attach.
// Screenshots of the opener behind a popup: measured with Playwright on Chromium's own endpoint and on
// ours (headless, as the tests run), the opener stays visible; its first capture after the popup takes
// 2-4 s and one right after can stall for 9 s, alike on both endpoints and with or without this file,
// so that is Chromium's and not the relay's. What differed was the client never learning of the popup:
// it could not wait for it, nor screenshot or bring it to front. Headful (Xvfb) the same: the opener
// stays visible behind a _blank popup and both captures take 0.1-0.4 s on either endpoint.
// https://chromedevtools.github.io/devtools-protocol/tot/Target/#type-TargetInfo
import { POPUP_EVENT, type PopupOpenedParams } from '../../../schemas/lib/cdp-popup-event';
import type { Logger } from '../../common/log';
import type { BrowserModel } from './browser-model';
import { objectOf, type Params, type Untrusted } from './cdp-protocol';
import type { TabTarget } from './cdp-sessions';
import { evaluatedValue } from './tab-answers';

export { POPUP_EVENT };

/** How long the popup's window.opener read may delay its announcement (a dialog can block the page). */
const OPENER_READ_MS = 1_000;

export class Popups {
  constructor(
    private readonly model: BrowserModel,
    private readonly log: Pick<Logger, 'info'>,
    /** False once the connection is disposed. */
    private readonly live: () => boolean,
  ) {}

  /** POPUP_EVENT from the opener's tab. */
  opened(opener: TabTarget, params: Params): void {
    const p = objectOf<Untrusted<PopupOpenedParams>>(params);
    if (typeof p.tab_id !== 'number') return;
    void this.take(opener, p.tab_id, p.main_frame === true);
  }

  private async take(opener: TabTarget, tabId: number, mainFrame: boolean): Promise<void> {
    const { model } = this;
    const known = model.sessions.tab(tabId);
    if (known && !known.gone) return;
    const attached = await model.attachTab(tabId);
    if (!attached.ok) {
      // Past the tab limit, a site the person blocks, another client's tab: the popup stays the person's.
      this.log.info('cdp: a popup of a held page stays with the person', { tab_id: tabId, message: attached.error.message });
      return;
    }
    const canAccessOpener = await this.opensBack(tabId);
    if (!this.live() || model.ended !== null || attached.tab.gone) return;
    // A new window's first document is about:blank until its page commits, as Chrome names it;
    // puppeteer counts a page target with no URL as not yet initialized and would not report it.
    if (attached.tab.url === '') attached.tab.url = 'about:blank';
    attached.tab.opener = {
      openerId: opener.targetId,
      // A main frame's id is its page's targetId; a frame inside the opener is not named by the extension.
      ...(mainFrame ? { openerFrameId: opener.targetId } : {}),
      canAccessOpener,
    };
    model.announce(attached.tab);
  }

  /** Chrome's canAccessOpener: window.open without noopener keeps window.opener; a _blank link (noopener since Chrome 88) does not. */
  private async opensBack(tabId: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), OPENER_READ_MS)));
    const read = this.model.tabs
      .request(tabId, 'Runtime.evaluate', { expression: 'window.opener !== null', returnByValue: true })
      .then((r) => r.ok && evaluatedValue(r.result) === true);
    return Promise.race([read, late]).finally(() => clearTimeout(timer));
  }
}
