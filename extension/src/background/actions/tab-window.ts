// Where open_tab puts a new tab. Chrome throttles a tab hidden behind another tab of its window (no
// animation frames, no rendering, so a screenshot waits seconds for a frame; timers slowed the longer it is hidden),
// but not the active tab of a window that merely lacks focus: an agent whose tab shares the person's (or
// another agent's) window runs at a fraction of the speed of one in front. So a caller may ask for a
// window of its own (new_window), and later for that window again (window_id): each agent's tab is then
// the active tab of its own window and runs at full speed, while the person's window keeps focus and its
// active tab. https://developer.chrome.com/blog/background_tabs/ (what hidden tabs lose).
import type { OpenTabParams } from '../../../../schemas/generated/protocol';
import type { WorkerContext } from './types';

/**
 * Opens url where params ask: in window_id while it is an open normal window, else in a new unfocused
 * window when asked (new_window, or a window_id the person closed: never another window of theirs),
 * else right after the acting tab in its window (where Chrome puts a tab a link opens).
 */
export async function createPlacedTab(ctx: WorkerContext, params: OpenTabParams, url: string): Promise<chrome.tabs.Tab> {
  const active = params.active !== false;
  if (params.window_id !== undefined) {
    const win = await chrome.windows.get(params.window_id).catch(() => null);
    if (win?.id !== undefined && win.type === 'normal' && !win.incognito) {
      // Created in the background, then made the window's active tab: tabs.create with active: true also
      // shows (focuses) its window, which would take focus from the person's window.
      const tab = await chrome.tabs.create({ windowId: win.id, url, active: false });
      return active && tab.id !== undefined ? ((await chrome.tabs.update(tab.id, { active: true })) ?? tab) : tab;
    }
  }
  if (params.new_window === true || params.window_id !== undefined) return openOwnWindow(ctx.tab.windowId, url);
  return chrome.tabs.create({ active, windowId: ctx.tab.windowId, index: ctx.tab.index + 1, url });
}

/**
 * A normal window that does not take focus, sized as the acting tab's window so pages lay out as they
 * would there. Its one tab is active in it (a tab alone in its window is never hidden behind another).
 */
async function openOwnWindow(likeWindowId: number, url: string): Promise<chrome.tabs.Tab> {
  const like = await chrome.windows.get(likeWindowId).catch(() => null);
  const size =
    like?.state === 'normal' && like.width !== undefined && like.height !== undefined ? { width: like.width, height: like.height } : {};
  const win = await chrome.windows.create({ url, focused: false, type: 'normal', ...size });
  const tab = win?.tabs?.[0];
  if (!tab) throw new Error('Chrome opened a window without its tab');
  return tab;
}
