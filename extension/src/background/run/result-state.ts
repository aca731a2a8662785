// The tab's state that goes into an action's result, or null when there is none to give (a closed
// tab, a restricted page, a local page that framed a file it may not show). The person's defaults
// (PII redaction) apply to every state, and each state taken is remembered as a base for a later
// get_state since.
import type { SimplifiedState } from '../../../../schemas/generated/protocol';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import { isLocalUrl } from '../../shared/local-files';
import { blockedLocalFrame, withPersonDefaults } from '../policy/person-policy';
import { isRestrictedUrl } from '../policy/tabs';
import { collectState } from '../state/collect';
import { rememberState } from '../state/state-cache';

export async function resultState(tabId: number, knownUrl?: string, topSnapshot?: FrameSnapshot): Promise<SimplifiedState | null> {
  const tab = knownUrl !== undefined ? { url: knownUrl } : await chrome.tabs.get(tabId).catch(() => null);
  if (!tab || isRestrictedUrl(tab.url)) return null;
  // A snapshot the page took without the person's redaction default is taken again.
  const params = await withPersonDefaults({});
  const s = await collectState(tabId, params, 'redact_pii' in params ? undefined : topSnapshot);
  // An allowed local page may have framed a file from outside its folder (person-policy.ts); judged
  // after the collection, so a frame added while it ran is seen too.
  if (isLocalUrl(tab.url) && (await blockedLocalFrame(tabId))) return null;
  if (s.ok) rememberState(tabId, s.state);
  return s.ok ? s.state : null;
}
