import type { ScreenshotParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { AGENT_UI_ATTR, AGENT_UI_HIGHLIGHTS, AGENT_UI_HOSTS_GLOBAL, AGENT_UI_SELECTOR } from '../../shared/agent-ui-marker';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { sendToContent } from '../connection/content-channel';
import { localFileBlocked, localTabError } from '../policy/person-policy';
import { isRestrictedUrl } from '../policy/tabs';
import { highlightsOf } from '../state/collect';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

/** Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian). */
export function pngSize(base64: string): { width: number; height: number } {
  const bin = atob(base64.slice(0, 44));
  const u32 = (o: number) =>
    ((bin.charCodeAt(o) << 24) | (bin.charCodeAt(o + 1) << 16) | (bin.charCodeAt(o + 2) << 8) | bin.charCodeAt(o + 3)) >>> 0;
  return { width: u32(16), height: u32(20) };
}

/**
 * Draws browser_use's numbered boxes in every frame of the tab's latest dom_tree state (see
 * content/browser-use-tree/highlight.ts); returns the frames to clean up. A frame that does not
 * answer simply has no boxes: the screenshot itself must not fail for them.
 */
async function drawBoxes(tabId: number): Promise<{ frames: number[]; boxes: number }> {
  const frames = highlightsOf(tabId);
  if (!frames) return { frames: [], boxes: 0 };
  const drawn = await Promise.all(
    [...frames].map(async ([frameId, indexes]) => {
      if (indexes.length === 0) return null;
      const r = await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'highlight', draw: true, indexes }, { frameId });
      return r.ok && r.response.ok ? { frameId, boxes: Number(r.response.result['drawn'] ?? 0) } : null;
    }),
  );
  const ok = drawn.filter((f): f is { frameId: number; boxes: number } => f !== null);
  return { frames: ok.map((f) => f.frameId), boxes: ok.reduce((a, f) => a + f.boxes, 0) };
}

async function removeBoxes(tabId: number, frames: number[]): Promise<void> {
  await Promise.all(
    frames.map((frameId) =>
      sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'highlight', draw: false }, { frameId }).catch(() => undefined),
    ),
  );
}

/**
 * captureVisibleTab, retried once after a second when Chrome refuses it for its quota of two
 * captures a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND), so an agent that asks for two
 * screenshots in quick succession gets the second one instead of an error. Reactive on purpose: a
 * proactive pacer delayed every state of a busy agent (and its Stop) even when Chrome would not
 * have refused.
 */
async function captureWithinQuota(windowId: number): Promise<string> {
  try {
    return await chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
  } catch (e) {
    if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(e instanceof Error ? e.message : String(e))) throw e;
    await new Promise((r) => setTimeout(r, 1000));
    return chrome.tabs.captureVisibleTab(windowId, { format: 'png' });
  }
}

/** Our own UI in the page except browser_use's numbered boxes, which the agent asked for. */
const OUR_LABEL = `${AGENT_UI_SELECTOR}:not([${AGENT_UI_ATTR}="${AGENT_UI_HIGHLIGHTS}"])`;

/**
 * Runs in every frame of the tab (chrome.scripting serializes it: self-contained). While `on`:
 * card, CVC, one-time-code and PIN fields are drawn masked (privacy.ts maskSecretFields, reached
 * through the content script's global), and our own page UI (ourLabel: the "Agent is controlling
 * this tab" label; not browser_use's numbered boxes, which the agent asked for) is hidden, so the model sees
 * the page as browser_use on Playwright would. Answers -1 when the frame's content script has not
 * started yet (a page opened a moment ago): the caller injects it and asks again, because a
 * screenshot must never show a card number it could have masked.
 */
function frameForCapture(on: boolean, ourLabel: string, hostsGlobal: string): Promise<number> {
  const HIDDEN = 'data-bux-capture-hidden';
  // Only hosts our content scripts created (this runs in their isolated world): a page element that
  // carries our attribute is page content and stays in the picture.
  const ours = (globalThis as unknown as Record<string, WeakSet<Element> | undefined>)[hostsGlobal];
  const isOurs = (el: Element) => ours?.has(el) === true;
  let changed = 0;
  // The label may be shown while the picture is taken (the lease that shows it is announced
  // asynchronously): agent-ui.ts reads this flag and adds it hidden.
  (globalThis as { __buxCapturing?: boolean }).__buxCapturing = on;
  if (on) {
    for (const el of document.querySelectorAll<HTMLElement>(ourLabel)) {
      if (!isOurs(el)) continue;
      el.setAttribute(HIDDEN, '');
      el.style.setProperty('visibility', 'hidden', 'important');
      changed++;
    }
  } else {
    for (const el of document.querySelectorAll<HTMLElement>(`[${HIDDEN}]`)) {
      if (!isOurs(el)) continue;
      el.style.removeProperty('visibility');
      el.removeAttribute(HIDDEN);
    }
  }
  const mask = (globalThis as { __buxMaskSecrets?: (on: boolean) => number }).__buxMaskSecrets;
  if (!mask) return Promise.resolve(-1);
  changed += mask(on);
  if (!on || changed === 0) return Promise.resolve(changed);
  // Let the change reach the screen before the capture: two frames, or 100 ms where frames do not
  // run (a frame hidden by its parent).
  return new Promise((res) => {
    const done = () => res(changed);
    setTimeout(done, 100);
    requestAnimationFrame(() => requestAnimationFrame(done));
  });
}

async function prepareFrames(tabId: number, on: boolean): Promise<void> {
  const run = (target: chrome.scripting.InjectionTarget) =>
    chrome.scripting.executeScript({ target, func: frameForCapture, args: [on, OUR_LABEL, AGENT_UI_HOSTS_GLOBAL] }).catch(() => []);
  const results = await run({ tabId, allFrames: true });
  if (!on) return;
  const missing = results.filter((r) => r.result === -1).map((r) => r.frameId);
  if (missing.length === 0) return;
  // content.js guards against a second copy (content/index.ts), so injecting into a frame whose
  // declared script is about to start is harmless.
  await chrome.scripting.executeScript({ target: { tabId, frameIds: missing }, files: ['content.js'] }).catch(() => undefined);
  await run({ tabId, frameIds: missing });
}

/** captureVisibleTab shoots the active tab of a window, so the tab is activated first. */
export async function screenshot(ctx: WorkerContext, params: ScreenshotParams = {}): Promise<WorkerOutcome> {
  if (localFileBlocked(ctx.tab.url)) return { ok: false, error: localTabError(ctx.tab.id, ctx.tab.url), stateTabId: null };
  if (isRestrictedUrl(ctx.tab.url)) {
    return {
      ok: false,
      error: errorInfo(
        'RESTRICTED_PAGE',
        `Tab ${ctx.tab.id} shows ${ctx.tab.url}, which Chrome does not let extensions capture. Navigate it to a web page first.`,
        WS,
        { tab_id: ctx.tab.id, current_url: ctx.tab.url },
      ),
      stateTabId: null,
    };
  }
  if (!ctx.tab.active) await chrome.tabs.update(ctx.tab.id, { active: true });
  let dataUrl: string;
  const boxed = params.highlight_elements === true ? await drawBoxes(ctx.tab.id) : { frames: [], boxes: 0 };
  try {
    await prepareFrames(ctx.tab.id, true);
    dataUrl = await captureWithinQuota(ctx.tab.windowId);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: errorInfo(
        'OPERATION_FAILED_IN_TARGET',
        `Chrome refused the screenshot (${why}). Wait a second and retry (Chrome allows two captures per second).`,
        WS,
        { tab_id: ctx.tab.id },
      ),
    };
  } finally {
    await prepareFrames(ctx.tab.id, false);
    // Right after the capture: the boxes never outlive the screenshot.
    if (boxed.frames.length > 0) await removeBoxes(ctx.tab.id, boxed.frames);
  }
  const data_base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const { width, height } = pngSize(data_base64);
  const note = params.highlight_elements === true ? ` with ${boxed.boxes} numbered box${boxed.boxes === 1 ? '' : 'es'}` : '';
  return { ok: true, message: `Screenshot of tab ${ctx.tab.id}: ${width}x${height} PNG${note}.`, result: { data_base64, width, height } };
}
