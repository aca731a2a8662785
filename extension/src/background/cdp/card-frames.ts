// Which frames of a tab a CDP client's screenshot must read card boxes from (capture-mask.ts), kept
// from what the frames push (content/snapshot/card-push.ts) instead of asked of every frame on every
// capture: a page where no frame ever drew a card number costs its screenshot nothing more.
//
// Why it never returns an unmasked image:
// - A frame that draws a card or holds a card field, or saw a change that may bring one (its pending
//   note, sent from the page change's own task, before a client could ask), is read at capture time,
//   fresh: a field moved by a scroll, a transition or a late layout is covered where it is now, not
//   where its last push said (a push is a frame late by design). Its ancestors and the top frame are
//   read with it, to place its boxes in the page.
// - A frame that holds a text field has its field values read at capture (not its text): a page
//   script can set a field's value to a card number with no event a content script could see.
// - A frame whose content script may not be running yet is read too (and the script injected, as
//   capture-mask.ts does): one still loading (committed, not completed: content.js runs at
//   document_idle), and every frame of a tab this worker has not read in full since it started (a
//   restarted worker knows nothing; a tab open before the extension has no content script).
// What is held per frame is dropped when the frame commits a new document or the tab closes.
import { type FrameCardBoxes, isCardFrameNote } from '../../shared/card-boxes';

interface FrameState {
  /** Read this frame at capture time: it draws or may draw a card number. */
  watch: boolean;
  /** Read this frame's field values at capture time: it holds a field a page script could fill with a card number silently. */
  fields: boolean;
  /** Its last pushed boxes (the record; a capture reads them fresh). */
  boxes: FrameCardBoxes | null;
  /** The document that sent them: a note from a document the frame has left is stale. */
  documentId: string | undefined;
}

const tabs = new Map<number, Map<number, FrameState>>();
/** Frames committed and not yet completed, per tab. */
const loading = new Map<number, Set<number>>();
/** Tabs whose every frame this worker has read once (capture-mask.ts frameBoxes, full). */
const readInFull = new Set<number>();

function framesOf(tabId: number): Map<number, FrameState> {
  let f = tabs.get(tabId);
  if (!f) tabs.set(tabId, (f = new Map()));
  return f;
}

/** Worker entry (index.ts): the frames' notes, new documents, finished loads and closed tabs. */
export function installCardFrames(): void {
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    if (!isCardFrameNote(message) || sender.id !== chrome.runtime.id) return false;
    const tabId = sender.tab?.id;
    const frameId = sender.frameId;
    if (tabId === undefined || frameId === undefined) return false;
    const frames = framesOf(tabId);
    const known = frames.get(frameId);
    if (known?.documentId && sender.documentId && known.documentId !== sender.documentId) return false;
    frames.set(frameId, { watch: message.watch, fields: message.fields, boxes: message.boxes, documentId: sender.documentId });
    return false;
  });
  chrome.webNavigation.onCommitted.addListener((d) => {
    // A new top document: the old one's frames are gone with it (Chrome tells no frame's removal).
    if (d.frameId === 0) {
      tabs.delete(d.tabId);
      loading.delete(d.tabId);
    }
    const frames = framesOf(d.tabId);
    frames.set(d.frameId, { watch: false, fields: false, boxes: null, documentId: d.documentId });
    let l = loading.get(d.tabId);
    if (!l) loading.set(d.tabId, (l = new Set()));
    l.add(d.frameId);
    // A page back from the back/forward cache keeps its content script, which will not tell again
    // what it told before the page left: the tab is read in full once more.
    if (d.transitionQualifiers.includes('forward_back')) readInFull.delete(d.tabId);
  });
  const loaded = (d: { tabId: number; frameId: number }) => loading.get(d.tabId)?.delete(d.frameId);
  chrome.webNavigation.onCompleted.addListener(loaded);
  chrome.webNavigation.onErrorOccurred.addListener(loaded);
  chrome.tabs.onRemoved.addListener((tabId) => {
    tabs.delete(tabId);
    loading.delete(tabId);
    readInFull.delete(tabId);
  });
}

/**
 * The frames a capture of the tab must read: 'all' when this worker has not read the tab in full
 * yet, else the frames that watch or are loading (empty: no card can be on the page, no question).
 * Their ancestors are added by the caller, which knows the frame tree.
 */
export function cardFramesToRead(tabId: number): 'all' | number[] {
  if (!readInFull.has(tabId)) return 'all';
  const out = new Set(loading.get(tabId));
  for (const [frameId, f] of tabs.get(tabId) ?? []) if (f.watch) out.add(frameId);
  return [...out];
}

/** The frames whose field values alone a capture must read (they hold a text field and draw no card number). */
export function fieldFramesToRead(tabId: number): number[] {
  const out: number[] = [];
  for (const [frameId, f] of tabs.get(tabId) ?? []) if (f.fields && !f.watch) out.push(frameId);
  return out;
}

/** A full read's answers: which frames draw a card number now (their content script keeps the worker told from here on). */
export function noteFullRead(tabId: number, answers: { frameId: number; boxes: FrameCardBoxes }[]): void {
  const frames = framesOf(tabId);
  for (const a of answers) {
    const f = frames.get(a.frameId);
    const watch = a.boxes.boxes.length > 0 || a.boxes.cardField;
    if (watch || a.boxes.textFields)
      frames.set(a.frameId, { watch, fields: a.boxes.textFields, boxes: a.boxes, documentId: f?.documentId });
  }
  readInFull.add(tabId);
}
