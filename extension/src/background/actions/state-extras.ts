// get_state's include_tabs and include_screenshot: the tab list and a screenshot read right after
// the state, so a browser_use step (state, tabs, picture) is one round trip instead of three.
// The answers are exactly list_tabs' and screenshot's (the same handlers run).
import type { GetStateParams, GetStateResult, ScreenshotResult } from '../../../../schemas/generated/protocol';
import { listTabs } from './list_tabs';
import { screenshot } from './screenshot';
import type { WorkerContext, WorkerOutcome } from './types';

/**
 * Runs after collectState: with include_dom_tree and highlight_elements on, the screenshot draws the
 * numbered boxes of the state just taken (screenshot reads the tab's latest dom_tree highlights).
 * The tabs are listed first: the screenshot activates its tab, and list_tabs reports the person's
 * active tab as it was when the state was taken. A refused capture is not a failed get_state.
 */
export async function stateExtras(ctx: WorkerContext, params: GetStateParams, tabs?: Promise<WorkerOutcome>): Promise<GetStateResult> {
  const out: GetStateResult = {};
  if (params.include_tabs === true) {
    // `tabs`: the listing get_state started beside the page's walk (dispatch.ts), so it costs the walk nothing.
    const listed = await (tabs ?? listTabs(ctx));
    if (listed.ok) out.tabs = listed.result['tabs'] as GetStateResult['tabs'];
  }
  if (params.include_screenshot === true) {
    const highlight = params.include_dom_tree === true && params.highlight_elements !== false;
    const shot = await screenshot(ctx, { highlight_elements: highlight });
    // screenshot's result is ScreenshotResult (schemas/v1/actions/screenshot.json); handlers return it untyped.
    if (shot.ok) out.screenshot = shot.result as unknown as ScreenshotResult;
    else out.screenshot_error = shot.error;
  }
  return out;
}
