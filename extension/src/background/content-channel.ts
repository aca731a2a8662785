// Sending a request to the content script of a tab's top frame, injecting the script first when
// the tab predates the extension (Chrome does not inject declared content scripts into tabs that
// were already open at install or reload time).
import type { ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/wire';
import type { ContentRequest, RunActionResponse } from '../shared/internal-messages';

export type ChannelOutcome = { ok: true; response: RunActionResponse } | { ok: false; portClosed: boolean; error: ErrorInfo };

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;
const PORT_CLOSED = /message port closed|message channel closed|page keeping the extension port is moved into back\/forward cache/i;

/** opts.frameId: the frame to reach (default 0, the top frame). */
export async function sendToContent(tabId: number, request: ContentRequest, opts: { frameId?: number } = {}): Promise<ChannelOutcome> {
  const frameId = opts.frameId ?? 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = (await chrome.tabs.sendMessage(tabId, request, { frameId })) as RunActionResponse | undefined;
      if (!response) return { ok: false, portClosed: true, error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', 'The page closed the channel before answering (it probably navigated).', 'background_script') };
      return { ok: true, response };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (PORT_CLOSED.test(why)) return { ok: false, portClosed: true, error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The page went away while the action ran (${why}).`, 'background_script') };
      if (attempt === 0 && NO_RECEIVER.test(why)) {
        try {
          await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['content.js'] });
          continue;
        } catch (injectError) {
          const injectWhy = injectError instanceof Error ? injectError.message : String(injectError);
          return { ok: false, portClosed: false, error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The extension cannot reach this page (${injectWhy}). If the page is still loading, wait and retry; some pages block extensions entirely.`, 'background_script', { tab_id: tabId }) };
        }
      }
      return { ok: false, portClosed: false, error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The extension could not reach the page's content script (${why}). Wait for the page to load and retry.`, 'background_script', { tab_id: tabId }) };
    }
  }
  return { ok: false, portClosed: false, error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', 'The content script did not start in this tab. Reload the tab and retry.', 'background_script', { tab_id: tabId }) };
}
