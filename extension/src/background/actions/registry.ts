// Worker-side actions by name. run/dispatch.ts runs these in the service worker; every other action
// goes to the content script of the frame that owns its target.
import type { ActionName } from '../../../../schemas/generated/registry';
import { cdpAttach } from './cdp_attach';
import { cdpDetach } from './cdp_detach';
import { closeTab } from './close_tab';
import { evaluate } from './evaluate';
import { extractAllFrames } from './extract_content';
import { getCookies } from './get_cookies';
import { goBack } from './go_back';
import { goForward } from './go_forward';
import { listTabs } from './list_tabs';
import { listTools } from './list_tools';
import { navigate } from './navigate';
import { openTab } from './open_tab';
import { openTool } from './open_tool';
import { reload } from './reload';
import { screenshot } from './screenshot';
import { search } from './search';
import { switchTab } from './switch_tab';
import type { WorkerHandler } from './types';
import { wait } from './wait';
import { waitForNavigation } from './wait_for_navigation';
import { waitForNetworkIdle } from './wait_for_network_idle';

export const WORKER_HANDLERS: Partial<Record<ActionName, WorkerHandler>> = {
  navigate: navigate as WorkerHandler,
  go_back: goBack as WorkerHandler,
  go_forward: goForward as WorkerHandler,
  reload: reload as WorkerHandler,
  search: search as WorkerHandler,
  open_tab: openTab as WorkerHandler,
  open_tool: openTool as WorkerHandler,
  list_tools: listTools as WorkerHandler,
  switch_tab: switchTab as WorkerHandler,
  close_tab: closeTab as WorkerHandler,
  list_tabs: listTabs as WorkerHandler,
  get_cookies: getCookies as WorkerHandler,
  screenshot: screenshot as WorkerHandler,
  wait: wait as WorkerHandler,
  wait_for_navigation: waitForNavigation as WorkerHandler,
  wait_for_network_idle: waitForNetworkIdle as WorkerHandler,
  evaluate: evaluate as WorkerHandler,
  // Every frame, cross-origin ones included (the page-side handler alone reaches same-origin frames only).
  extract_content: ((ctx, p) => extractAllFrames(ctx.tab.id, p)) as WorkerHandler,
  // A CDP client's commands are not actions: cdp_command messages, run straight from index.ts (cdp-command.ts).
  cdp_attach: cdpAttach as WorkerHandler,
  cdp_detach: cdpDetach as WorkerHandler,
};

/** Worker actions that work on any tab, including chrome:// pages (they do not script the page). */
export const TAB_LEVEL = new Set<ActionName>([
  'navigate',
  'go_back',
  'go_forward',
  'reload',
  'search',
  'open_tab',
  'switch_tab',
  'close_tab',
  'list_tabs',
  // Reads chrome.cookies for the session's tabs (get_cookies.ts), whatever the routing tab shows.
  'get_cookies',
  'wait',
  'wait_for_navigation',
  'open_tool',
  'list_tools',
  // Letting go of a tab works whatever it shows now.
  'cdp_detach',
]);
