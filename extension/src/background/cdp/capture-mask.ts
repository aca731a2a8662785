// A CDP client's screenshot shows card numbers no more than its text reads do: the text filter masks
// them in every answer (bridge-connection.ts), so Page.captureScreenshot's image gets the same boxes
// the classic screenshot draws (content/snapshot/privacy.ts), painted here in the worker after the
// capture rather than in the page before it: a CDP client's page stays untouched (no style change
// its observers or its own screenshot could see), and the boxes land exactly where the digits are in
// the image Chrome made, whatever clip, scale or captureBeyondViewport the client asked for. A page
// with no card number costs one question to its frames and no decode. A card number the client itself
// typed stays visible, as it reads back as typed (client-input.ts). Which frames are read: card-frames.ts
// (only those that draw or may draw a card; none on a page that never had one).
import { CARD_BOXES_GLOBAL, CARD_MASK_COLOR, type FrameCardBoxes } from '../../shared/card-boxes';
import { anyInRegion, type Box, type Clip, type FrameAnswer, placeBoxes, toImageRects } from './capture-geometry';
import { cardFramesToRead, fieldFramesToRead, noteFullRead } from './card-frames';
import { clientSent } from './client-input';

type Params = Record<string, unknown>;

/** Runs in every frame (serialized by chrome.scripting: self-contained); null while the content script has not started. */
function askFrame(name: string, fieldsOnly: boolean): FrameCardBoxes | null {
  const fn = (globalThis as Record<string, unknown>)[name];
  return typeof fn === 'function' ? (fn as (fieldsOnly: boolean) => FrameCardBoxes)(fieldsOnly) : null;
}

type Answer = { frameId: number; boxes: FrameCardBoxes };

/**
 * The card boxes of the frames that may draw a card number (card-frames.ts), with their ancestors and
 * the top frame to place them; every frame's when the worker has not read the tab in full yet, or
 * when a frame read by id went away meanwhile (frame ids come from the frame tree a moment before).
 */
async function frameBoxes(tabId: number): Promise<Answer[]> {
  const plan = cardFramesToRead(tabId);
  if (plan === 'all') {
    const answers = await readFrames(tabId, { tabId, allFrames: true });
    if (answers) noteFullRead(tabId, answers);
    return answers ?? [];
  }
  const fieldFrames = fieldFramesToRead(tabId);
  if (plan.length === 0 && fieldFrames.length === 0) return [];
  const parents = await parentIds(tabId);
  // The watched frames whole; the others (frames with fields only, and the ancestors that place
  // a frame's boxes in the page) by their field values, their text being known to hold no card.
  const whole = new Set(plan.filter((id) => parents.has(id)));
  const ids = new Set<number>([0]);
  for (const id of [...plan, ...fieldFrames])
    for (let f: number | undefined = id; f !== undefined && f !== -1 && !ids.has(f); f = parents.get(f)) ids.add(f);
  const fieldsOnly = [...ids].filter((id) => parents.has(id) && !whole.has(id));
  const read = (frameIds: number[], only: boolean) =>
    frameIds.length === 0 ? Promise.resolve([]) : readFrames(tabId, { tabId, frameIds }, only);
  const [a, b] = await Promise.all([read([...whole], false), read(fieldsOnly, true)]);
  return a && b ? [...a, ...b] : ((await readFrames(tabId, { tabId, allFrames: true })) ?? []);
}

/**
 * The frames' card boxes, null when they could not be read (a frame gone, the tab closing); a frame
 * whose content script has not started yet gets it first (content.js runs once per frame).
 */
async function readFrames(tabId: number, target: chrome.scripting.InjectionTarget, fieldsOnly = false): Promise<Answer[] | null> {
  const run = (t: chrome.scripting.InjectionTarget) =>
    chrome.scripting.executeScript({ target: t, func: askFrame, args: [CARD_BOXES_GLOBAL, fieldsOnly] });
  let results: Awaited<ReturnType<typeof run>>;
  try {
    results = await run(target);
  } catch {
    return null;
  }
  const missing = results.filter((r) => r.result === null).map((r) => r.frameId);
  let more: typeof results = [];
  if (missing.length > 0) {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: missing }, files: ['content.js'] }).catch(() => undefined);
    more = await run({ tabId, frameIds: missing }).catch(() => []);
  }
  return [...results, ...more].flatMap((r) => (r.result ? [{ frameId: r.frameId, boxes: r.result as FrameCardBoxes }] : []));
}

/**
 * Page.captureScreenshot's answer with the card numbers of the page covered; any other answer as it
 * is. sessionId: a child session's capture (an out-of-process frame's target) cannot be placed in the
 * page, so any card number in the tab covers the whole image.
 */
export async function maskedCapture(
  tabId: number,
  sessionId: string | undefined,
  method: string,
  params: Params | undefined,
  result: Params | undefined,
): Promise<Params | undefined> {
  if (method !== 'Page.captureScreenshot' || typeof result?.['data'] !== 'string') return result;
  const format = params?.['format'] === 'jpeg' || params?.['format'] === 'webp' ? params['format'] : 'png';
  const quality = typeof params?.['quality'] === 'number' ? params['quality'] : undefined;
  const data = await maskImage(tabId, sessionId, result['data'], format, quality, clipOf(params));
  return data === result['data'] ? result : { ...result, data };
}

/** Frames of one tab are masked one after another, so the client gets them in Chrome's order. */
const screencastChains = new Map<number, Promise<unknown>>();

/**
 * A Page.screencastFrame event's params with the card numbers covered (the frame shows the viewport,
 * like a capture without clip; Chrome sends JPEG unless the client asked for PNG), or null when the
 * frame could not be masked: it is dropped rather than sent with the digits.
 */
export function maskedScreencastFrame(tabId: number, sessionId: string | undefined, params: Params): Promise<Params | null> {
  const next = (screencastChains.get(tabId) ?? Promise.resolve()).then(async () => {
    const data = params['data'];
    if (typeof data !== 'string') return params;
    try {
      const masked = await maskImage(tabId, sessionId, data, data.startsWith('iVBOR') ? 'png' : 'jpeg', undefined, undefined);
      return masked === data ? params : { ...params, data: masked };
    } catch (e) {
      console.warn('[browser-use-ext] a screencast frame could not be masked and was dropped', e instanceof Error ? e.message : e);
      return null;
    }
  });
  const tail = next.catch(() => undefined);
  screencastChains.set(tabId, tail);
  void tail.then(() => {
    if (screencastChains.get(tabId) === tail) screencastChains.delete(tabId);
  });
  return next;
}

/** The image (base64) with the tab's card numbers covered; the same string when there are none to cover. Throws when it cannot mask. */
async function maskImage(
  tabId: number,
  sessionId: string | undefined,
  base64: string,
  format: string,
  quality: number | undefined,
  clip: Clip | undefined,
): Promise<string> {
  const answers = await frameBoxes(tabId);
  if (!answers.some((a) => a.boxes.boxes.length > 0)) return base64;
  const top = answers.find((a) => a.frameId === 0)?.boxes;
  const parents = answers.some((a) => a.frameId !== 0 && a.boxes.boxes.length > 0) ? await parentIds(tabId) : new Map<number, number>();
  const frames: FrameAnswer[] = answers.map((a) => ({ ...a, parentFrameId: parents.get(a.frameId) ?? -1 }));
  // What the client typed itself is shown, as its reads return it.
  const shown = placeBoxes(frames).filter((p) => !p.cards.every((c) => clientSent(tabId, c)));
  if (shown.length === 0) return base64;
  const whole = sessionId !== undefined || top === undefined || shown.some((p) => p.box === null);
  const boxes = shown.flatMap((p) => (p.box ? [p.box] : []));
  // Card numbers only outside the picture (below the fold of a viewport shot): nothing to decode.
  if (!whole && top && !anyInRegion(boxes, top, clip)) return base64;
  try {
    return await paint(base64, format, quality, (image) =>
      whole || !top ? [{ x: 0, y: 0, w: image.width, h: image.height }] : toImageRects(boxes, top, clip, image),
    );
  } catch (e) {
    // Never the image unmasked: the client is told to take it again (Chrome's protocol error shape, cdp-command.ts chromeError).
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      JSON.stringify({
        code: -32000,
        message: `the screenshot was taken but card numbers on the page could not be covered in it (${why}), so it is not returned; take it again`,
      }),
    );
  }
}

function clipOf(params: Params | undefined): Clip | undefined {
  const c = params?.['clip'] as Record<string, unknown> | undefined;
  if (!c) return undefined;
  const n = (k: string) => (typeof c[k] === 'number' ? c[k] : 0);
  return { x: n('x'), y: n('y'), width: n('width'), height: n('height') };
}

async function parentIds(tabId: number): Promise<Map<number, number>> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [];
  return new Map(frames.map((f) => [f.frameId, f.parentFrameId]));
}

/** Decodes the image, fills the rects with the mask colour and encodes it again in the client's format and quality. */
async function paint(
  base64: string,
  format: string,
  quality: number | undefined,
  rectsFor: (image: ImageBitmap) => Box[],
): Promise<string> {
  const type = `image/${format}`;
  const bytes = fromBase64(base64);
  const bitmap = await createImageBitmap(new Blob([bytes], { type }), { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context in the worker');
  ctx.drawImage(bitmap, 0, 0);
  ctx.fillStyle = CARD_MASK_COLOR;
  for (const r of rectsFor(bitmap)) ctx.fillRect(r.x, r.y, r.w, r.h);
  bitmap.close();
  // Chrome's own default for jpeg and webp when no quality is given is 80 (DevTools protocol, Page.captureScreenshot).
  const blob = await canvas.convertToBlob(format === 'png' ? { type } : { type, quality: (quality ?? 80) / 100 });
  return toBase64(new Uint8Array(await blob.arrayBuffer()));
}

function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}
