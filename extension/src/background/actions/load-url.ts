// Starting a navigation with chrome.tabs.update, asked again when Chrome turns it away without
// starting anything. Chrome answers "Navigation rejected." when its navigation controller refused to
// begin the load (tabs_api.cc: LoadURLWithParams gave no navigation handle); seen on a tab opened a
// moment before, still inside its first navigation. Nothing started, so asking again is safe; the
// retries stay inside the action's own budget. On a loaded machine that first navigation took longer
// than the four retries of 1.1 s once (a CI run), so they go on every 600 ms for up to 5 s in all.
import { type Budget, sleep } from '../page-watch/budget';

const REJECTED = /navigation rejected/i;
const RETRY_DELAYS_MS = [50, 150, 300, 600];
const RETRY_FOR_MS = 5000;

export async function loadUrl(budget: Budget, tabId: number, url: string, retryForMs = RETRY_FOR_MS): Promise<chrome.tabs.Tab | undefined> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await chrome.tabs.update(tabId, { url });
    } catch (e) {
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] as number;
      const late = Date.now() - started + delay > retryForMs;
      if (!(e instanceof Error) || !REJECTED.test(e.message) || late || budget.remaining() < delay + 1000) throw e;
      await sleep(delay);
    }
  }
}
