// go_back / go_forward. Chrome's back button (and chrome.tabs.goBack, which mimics it) skips
// history entries the user never interacted with (the "history manipulation intervention"), and an
// agent's synthetic clicks are no interaction, so tabs.goBack would jump over the pages the agent
// itself visited. history.back() from the page does not skip them, like Playwright's goBack. We
// use it when the Navigation API says there is a same-origin entry to go to; otherwise (cross-origin
// neighbour, restricted page) chrome.tabs.goBack/goForward.
import { isRestrictedUrl } from '../policy/tabs';
import { navigateAndWait } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

/** Runs in the page (isolated world): steps history if the Navigation API says it can. */
function stepInPage(direction: number): boolean {
  const nav = (window as unknown as { navigation?: { canGoBack: boolean; canGoForward: boolean } }).navigation;
  if (!nav || !(direction < 0 ? nav.canGoBack : nav.canGoForward)) return false;
  if (direction < 0) history.back();
  else history.forward();
  return true;
}

export function historyStep(ctx: WorkerContext, direction: -1 | 1, timeoutMs: number | undefined): Promise<WorkerOutcome> {
  const name = direction < 0 ? 'go_back' : 'go_forward';
  const viaTabs = () => (direction < 0 ? chrome.tabs.goBack(ctx.tab.id) : chrome.tabs.goForward(ctx.tab.id));
  return navigateAndWait(
    ctx,
    ctx.tab.id,
    name,
    async () => {
      if (!isRestrictedUrl(ctx.tab.url)) {
        const [r] = await chrome.scripting
          .executeScript({ target: { tabId: ctx.tab.id, frameIds: [0] }, func: stepInPage, args: [direction] })
          .catch(() => [] as chrome.scripting.InjectionResult<boolean>[]);
        if (r?.result === true) return;
      }
      await viaTabs();
    },
    timeoutMs,
  );
}
