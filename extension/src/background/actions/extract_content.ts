// extract_content across frames (browser_use: page.content() as markdown, then for every frame with
// another URL that is not data: an "IFRAME <url>:" block). Each frame's content script renders its
// own document (content/actions/extract.ts); this gathers them with chrome.scripting.executeScript
// over all frames, which also reaches cross-origin iframes (host permission <all_urls>).
// The worker registers it as the extract_content handler: (ctx, p) => extractAllFrames(ctx.tab.id, p).
import type { ErrorInfo, ExtractContentParams, ExtractContentResult } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';

interface FrameText {
  url: string;
  text: string;
}

const DEFAULT_MAX = 100_000;

export type ExtractOutcome = { ok: true; message: string; result: ExtractContentResult } | { ok: false; error: ErrorInfo };

export async function extractAllFrames(tabId: number, params: ExtractContentParams = {}): Promise<ExtractOutcome> {
  const includeLinks = params.include_links !== false;
  const max = params.max_chars ?? DEFAULT_MAX;
  let results: chrome.scripting.InjectionResult<FrameText | null>[];
  try {
    // Frames that predate the extension (or were added by script) may lack the content script.
    await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['content.js'] }).catch(() => undefined);
    results = (await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: (links: boolean) =>
        (globalThis as { __buxExtractFrame?: (l: boolean) => { url: string; text: string } }).__buxExtractFrame?.(links) ?? null,
      args: [includeLinks],
    })) as chrome.scripting.InjectionResult<FrameText | null>[];
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: errorInfo(
        'COMMUNICATION_ERROR_WITH_TARGET',
        `Could not read the page's frames (${why}). Wait for the page to load and retry.`,
        'background_script',
        { tab_id: tabId },
      ),
    };
  }
  const top = results.find((r) => r.frameId === 0)?.result;
  if (!top)
    return {
      ok: false,
      error: errorInfo(
        'COMMUNICATION_ERROR_WITH_TARGET',
        'The top frame did not answer. Wait for the page to load and retry.',
        'background_script',
        { tab_id: tabId },
      ),
    };
  let text = top.text;
  let frames = 1;
  for (const r of results) {
    if (r.frameId === 0 || !r.result) continue;
    const { url, text: frameText } = r.result;
    if (url === top.url || url.startsWith('data:') || !frameText.trim()) continue;
    text += `\n\nIFRAME ${url}:\n${frameText}`;
    frames++;
  }
  const truncated = text.length > max;
  if (truncated) text = text.slice(0, max);
  return { ok: true, message: `📄  Extracted from page\n: ${text}\n`, result: { text, frames, truncated } };
}
