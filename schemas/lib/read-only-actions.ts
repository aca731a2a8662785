// Actions that only read the page or wait, and change nothing: doing one again is harmless. The bridge
// does not journal them (a re-sent id after a crash simply runs again) and the agent client re-sends
// them to a bridge that lost its session; every other action runs at most once. Attaching or
// detaching the DevTools protocol changes nothing in the page either. (A CDP client's commands are
// not actions but cdp_command messages: the bridge never journals them; see agent-gateway.ts.)
import type { ActionName } from '../generated/registry';

export const READ_ONLY_ACTIONS: ReadonlySet<string> = new Set<ActionName>([
  'get_state',
  'get',
  'is',
  'extract_content',
  'list_tabs',
  // Also never journaled to disk: its answer holds cookie values.
  'get_cookies',
  'list_tools',
  'screenshot',
  'get_dropdown_options',
  'wait',
  'wait_for',
  'wait_for_navigation',
  'wait_for_network_idle',
  'cdp_attach',
  'cdp_detach',
]);
