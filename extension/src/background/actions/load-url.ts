// Starting a navigation with chrome.tabs.update, asked again when Chrome turns it away without
// starting anything. Chrome answers "Navigation rejected." when its navigation controller refused to
// begin the load (tabs_api.cc: LoadURLWithParams gave no navigation handle); seen on a tab opened a
// moment before, still inside its first navigation. Nothing started, so asking again is safe; the
// retries stay inside the action's own budget.
import { type Budget, sleep } from '../page-watch/budget';

const REJECTED = /navigation rejected/i;
const RETRY_DELAYS_MS = [50, 150, 300, 600];

export async function loadUrl(budget: Budget, tabId: number, url: string): Promise<chrome.tabs.Tab | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await chrome.tabs.update(tabId, { url });
    } catch (e) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (!(e instanceof Error) || !REJECTED.test(e.message) || delay === undefined || budget.remaining() < delay + 1000) throw e;
      await sleep(delay);
    }
  }
}
