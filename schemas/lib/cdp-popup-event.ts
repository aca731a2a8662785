// The one cdp_event method the extension makes up itself (cdp_event.json describes it): a tab a CDP
// client holds opened another tab or window. Sent on the opener's tab, so it reaches only the agent
// session holding the opener; Chrome never sends a method of this domain, so no page event can pass
// for it. The bridge's CDP endpoint turns it into Chrome's announcement of a popup (bridge/agents/cdp/popups.ts).

export const POPUP_EVENT = 'BrowserUseExt.popupOpened';

/** POPUP_EVENT's params. */
export interface PopupOpenedParams {
  /** The new tab. */
  tab_id: number;
  /** true: the opener's main frame opened it; false: a frame inside it; absent: not known. */
  main_frame?: boolean;
}
