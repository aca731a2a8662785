// Each CDP client's pages open in a window of its own, not among the person's tabs or another client's:
// Chrome throttles a tab hidden behind another tab of its window (timers, animation frames, rendering;
// a screenshot waits for a frame), so with two clients in one window the one behind ran at a fifth of the
// speed of the one in front. The active tab of an unfocused window is not throttled, and the person's
// window keeps focus. The first page opens a new window (open_tab new_window); later pages go to that
// window while it is open (window_id; the extension opens a new one when the person closed it).
import type { ActionParams } from '../../../schemas/generated/registry';

type Placement = Pick<ActionParams<'open_tab'>, 'new_window' | 'window_id'>;

export class OwnWindow {
  private windowId: number | null = null;

  /** Where Target.createTarget's page goes; newWindow (Chrome's own param) always asks for a fresh one. */
  placement(newWindow: boolean): Placement {
    return this.windowId === null || newWindow ? { new_window: true } : { window_id: this.windowId };
  }

  /** The window the extension says the page opened in (open_tab's window_id), remembered for the next page. */
  opened(windowId: unknown): void {
    if (typeof windowId === 'number' && Number.isInteger(windowId) && windowId >= 0) this.windowId = windowId;
  }
}
