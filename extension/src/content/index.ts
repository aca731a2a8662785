// Content script entry: runs in the page's isolated world and answers the service worker.
import { errorInfo } from '../../../schemas/lib/errors';
import { isContentRequest, type RunActionRequest, type RunActionResponse } from '../shared/internal-messages';
import { click } from './actions/click';
import { RefRegistry } from './refs';
import { waitForSettle } from './settle';
import { takeSnapshot } from './snapshot';

declare global {
  interface Window {
    __browserUseExtLoaded?: boolean;
  }
}

// The worker may inject this script into a tab that already has it (after an extension reload the
// old copy is orphaned but its flag survives in the isolated world, so re-arm in that case).
if (!window.__browserUseExtLoaded) {
  window.__browserUseExtLoaded = true;
  const refs = new RefRegistry();

  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    if (!isContentRequest(message)) return false;
    if (message.kind === 'ping') {
      sendResponse({ ok: true });
      return false;
    }
    run(refs, message).then(sendResponse, (e: unknown) => {
      const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      const response: RunActionResponse = { ok: false, state: null, error: errorInfo('EXTENSION_INTERNAL_ERROR', `The content script failed while running "${message.action}": ${why}. Take a new state and retry; report the bug if it repeats.`, 'content_script') };
      sendResponse(response);
    });
    return true; // async reply
  });
}

async function run(refs: RefRegistry, req: RunActionRequest): Promise<RunActionResponse> {
  switch (req.action) {
    case 'get_state':
      return { ok: true, message: 'State taken.', result: {}, state: takeSnapshot(refs) };
    case 'click': {
      const params = req.params as { element_id: string };
      const out = click(refs, params.element_id);
      if (!out.ok) return { ok: false, error: out.error, state: takeSnapshot(refs) };
      await waitForSettle();
      return { ok: true, message: out.message, result: out.value, state: takeSnapshot(refs) };
    }
    default:
      return { ok: false, state: null, error: errorInfo('UNSUPPORTED_ACTION', `The content script does not implement "${String(req.action)}".`, 'content_script') };
  }
}
