// A CDP client's own input passes the card filter in its tab only (client-input.ts), the walk is
// skipped only for methods with no page text (cdp-send-options.ts) and a DOM snapshot is walked
// through its string table, and card boxes land where the digits are in the screenshot's image
// (capture-geometry.ts).
import { expect } from 'chai';

import { anyInRegion, placeBoxes, toImageRects } from '../../extension/src/background/cdp/capture-geometry';
import { cardFramesToRead, fieldFramesToRead, noteFullRead } from '../../extension/src/background/cdp/card-frames';
import { scrubStrings } from '../../extension/src/background/connection/bridge-connection';
import type { FrameCardBoxes } from '../../extension/src/shared/card-boxes';

// Loaded in the before hook, under a fake chrome, by one dynamic import each: the same module instances
// (a static import would load a second copy of client-input.ts beside the one cdp-send-options.ts uses).
let sendOptions: typeof import('../../extension/src/background/cdp/cdp-send-options');
let input: typeof import('../../extension/src/background/cdp/client-input');

/** A chrome whose every call resolves to []: enough for the worker modules' top level (cdp-relay.ts reads storage on load). */
function fakeChrome(): unknown {
  const children = new Map<PropertyKey, unknown>();
  return new Proxy(() => Promise.resolve([]), {
    get(_t, key) {
      if (key === 'then') return undefined;
      if (!children.has(key)) children.set(key, fakeChrome());
      return children.get(key);
    },
  });
}

before(async () => {
  const g = globalThis as unknown as { chrome?: unknown };
  const had = 'chrome' in g;
  if (!had) g.chrome = fakeChrome();
  sendOptions = await import('../../extension/src/background/cdp/cdp-send-options');
  input = await import('../../extension/src/background/cdp/client-input');
  if (!had) delete g.chrome;
});

const CARD = '4242 4242 4242 4242';
/** The 15 digits given, with the Luhn check digit that makes them a card number. */
function visa(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}
const OTHER = '4000 0566 5566 5556';

describe('CDP card privacy: the client typed it', () => {
  afterEach(() => {
    for (const t of [1, 2, 3]) input.forgetClientInput(t);
  });

  it('card numbers in what the client sent: any grouping, whole numbers only, no short numbers', () => {
    expect(input.cardsIn(`fill("${CARD}")`)).to.deep.equal(['4242424242424242']);
    expect(input.cardsIn('4242-4242-4242-4242, and then 12 34')).to.deep.equal(['4242424242424242']);
    expect(input.cardsIn('order 12345 on 12-06')).to.deep.equal([]);
  });

  it('a long run of digits that merely contains a card spares nothing (many guesses at once)', () => {
    input.noteClientInput(1, 'Runtime.evaluate', { expression: `'1${CARD.replace(/ /g, '')}${OTHER.replace(/ /g, '')}9'` });
    for (const ch of `12${CARD.replace(/ /g, '')}`) input.noteClientInput(2, 'Input.dispatchKeyEvent', { type: 'char', text: ch });
    expect(input.clientSent(1, CARD)).to.equal(false);
    expect(input.clientSent(1, OTHER)).to.equal(false);
    expect(input.clientSent(2, CARD), 'typed after other digits, no click or Tab between').to.equal(false);
  });

  it('at most 16 card numbers are spared per tab, and a new hold does not start the count again', () => {
    const tab = 9;
    const cards = Array.from({ length: 20 }, (_, i) => visa(`4${String(i).padStart(14, '0')}`));
    for (const c of cards.slice(0, 18)) input.noteClientInput(tab, 'Input.insertText', { text: c });
    expect(cards.slice(0, 18).map((c) => input.clientSent(tab, c))).to.deep.equal([...Array(16).fill(true), false, false]);
    input.forgetClientInput(tab);
    input.noteClientInput(tab, 'Input.insertText', { text: cards[19] ?? '' });
    expect(input.clientSent(tab, cards[19] ?? ''), 'a new hold of the same tab').to.equal(false);
  });

  it("Playwright's fill (Input.insertText) and browser_use's keystrokes (one char event each) are known whole", () => {
    input.noteClientInput(1, 'Input.insertText', { text: CARD });
    expect(input.clientSent(1, CARD)).to.equal(true);
    expect(input.clientSent(1, '4242-4242-4242-4242'), 'the page may regroup it').to.equal(true);
    for (const ch of OTHER) {
      input.noteClientInput(2, 'Input.dispatchKeyEvent', { type: 'keyDown', key: ch });
      input.noteClientInput(2, 'Input.dispatchKeyEvent', { type: 'char', text: ch });
      input.noteClientInput(2, 'Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
    }
    expect(input.clientSent(2, OTHER)).to.equal(true);
  });

  it('a value set by script (callFunctionOn arguments, evaluate, setAttributeValue) counts as typed', () => {
    input.noteClientInput(1, 'Runtime.callFunctionOn', {
      functionDeclaration: '(el, v) => el.value = v',
      arguments: [{ objectId: 'x' }, { value: CARD }],
    });
    input.noteClientInput(2, 'Runtime.evaluate', { expression: `document.querySelector('#cc').value = '${OTHER}'` });
    input.noteClientInput(3, 'DOM.setAttributeValue', { nodeId: 4, name: 'value', value: OTHER });
    expect(input.clientSent(1, CARD)).to.equal(true);
    expect(input.clientSent(2, OTHER)).to.equal(true);
    expect(input.clientSent(3, OTHER)).to.equal(true);
  });

  it("what one tab's client typed never unmasks another tab, another card, or the tab after its hold ended", () => {
    input.noteClientInput(1, 'Input.insertText', { text: CARD });
    expect(input.clientSent(2, CARD), 'another tab').to.equal(false);
    expect(input.clientSent(1, OTHER), 'a card the client did not type').to.equal(false);
    expect(input.spareFor(2), 'nothing to spare in a tab the client typed nothing into').to.equal(undefined);
    input.forgetClientInput(1);
    expect(input.clientSent(1, CARD), 'after the hold ended').to.equal(false);
  });

  it('the filter returns the typed card as typed and masks the page’s own, in one answer', () => {
    input.noteClientInput(1, 'Input.insertText', { text: CARD });
    const result = {
      type: 'cdp_result',
      original_command_id: 'c1',
      tab_id: 1,
      result: { result: { type: 'object', value: { typed: CARD, page: OTHER } } },
    } as const;
    const msg = structuredClone(result) as unknown as Record<string, unknown>;
    const opts = sendOptions.cdpSendOptions(result, 'Runtime.callFunctionOn');
    scrubStrings(msg, 0, { cards: true, ...(opts.spare ? { spare: opts.spare } : {}) }, opts.keep);
    expect(msg['result']).to.deep.equal({ result: { type: 'object', value: { typed: CARD, page: '[redacted:payment_card]' } } });
  });
});

describe('CDP card privacy: the walk only where page text is', () => {
  it('input, emulation and lifecycle answers are sent as they are; values, URLs, DOM and errors are walked', () => {
    for (const m of ['Input.dispatchMouseEvent', 'Input.insertText', 'Emulation.setDeviceMetricsOverride', 'Page.captureScreenshot'])
      expect(sendOptions.isTextFree('result', m), m).to.equal(true);
    for (const m of ['Runtime.evaluate', 'Runtime.callFunctionOn', 'DOM.describeNode', 'Target.getTargets', 'Network.getResponseBody'])
      expect(sendOptions.isTextFree('result', m), m).to.equal(false);
    expect(sendOptions.isTextFree('event', 'Page.lifecycleEvent')).to.equal(true);
    for (const m of [
      'Network.requestWillBeSent',
      'Network.responseReceived',
      'Page.frameNavigated',
      'Runtime.consoleAPICalled',
      'Target.targetInfoChanged',
    ])
      expect(sendOptions.isTextFree('event', m), m).to.equal(false);
    const failed = { type: 'cdp_result', original_command_id: 'c', tab_id: 1, error_info: {} } as never;
    expect(sendOptions.cdpSendOptions(failed, 'Input.dispatchMouseEvent').plain, 'an error is walked').to.equal(undefined);
  });
});

describe('CDP card privacy: a DOM snapshot is filtered through its string table', () => {
  it('the card in the string table is masked; the numbers of its documents are not visited', () => {
    const result = {
      documents: [{ nodes: { nodeName: [0, 1], nodeValue: [-1, 2], backendNodeId: [10, 11] }, layout: { bounds: [[0, 0, 4, 4]] } }],
      strings: ['#document', 'INPUT', CARD],
    };
    const message = { type: 'cdp_result', original_command_id: 'c', tab_id: 1, result } as const;
    const opts = sendOptions.cdpSendOptions(message, 'DOMSnapshot.captureSnapshot');
    const visited: string[] = [];
    const keep = (key: string, owner: Record<string, unknown>) => {
      const kept = opts.keep?.(key, owner) ?? false;
      if (!kept) visited.push(key);
      return kept;
    };
    const msg = structuredClone(message) as unknown as { result: typeof result };
    scrubStrings(msg, 0, { cards: true }, keep);
    expect(msg.result.strings).to.deep.equal(['#document', 'INPUT', '[redacted:payment_card]']);
    expect(msg.result.documents, 'the documents as Chrome gave them').to.deep.equal(result.documents);
    expect(visited, 'nothing under documents').to.not.include.members(['nodes', 'layout', 'bounds']);
    const other = sendOptions.cdpSendOptions(message, 'Runtime.evaluate');
    expect(other.keep?.('documents', result), 'only the snapshot answer skips it').to.equal(false);
  });
});

const frame = (p: Partial<FrameCardBoxes>): FrameCardBoxes => ({
  boxes: [],
  index: -1,
  children: [],
  scrollX: 0,
  scrollY: 0,
  width: 800,
  height: 600,
  cardField: false,
  textFields: false,
  ...p,
});

describe('CDP card privacy: which frames a screenshot reads', () => {
  const box = { x: 0, y: 0, w: 10, h: 10, cards: ['4000 0566 5566 5556'] };
  it('every frame of a tab this worker never read, then none on a page without a card (no question per screenshot)', () => {
    expect(cardFramesToRead(901)).to.equal('all');
    noteFullRead(901, [
      { frameId: 0, boxes: frame({}) },
      { frameId: 3, boxes: frame({ index: 0 }) },
    ]);
    expect(cardFramesToRead(901)).to.deep.equal([]);
  });
  it('only the frames that draw a card number or hold a card field (empty or not)', () => {
    noteFullRead(902, [
      { frameId: 0, boxes: frame({}) },
      { frameId: 4, boxes: frame({ index: 0, boxes: [box] }) },
      { frameId: 5, boxes: frame({ index: 1, cardField: true }) },
    ]);
    expect(cardFramesToRead(902)).to.have.members([4, 5]);
  });
  it('the field values of the frames that hold a text field, however the page fills it (no event is needed)', () => {
    noteFullRead(903, [
      { frameId: 0, boxes: frame({ textFields: true }) },
      { frameId: 6, boxes: frame({ index: 0 }) },
      { frameId: 7, boxes: frame({ index: 1, cardField: true, textFields: true }) },
    ]);
    expect(cardFramesToRead(903), 'whole: the frame with a card field').to.deep.equal([7]);
    expect(fieldFramesToRead(903), 'fields only: the top frame with a text field').to.deep.equal([0]);
  });
});

describe('CDP card privacy: boxes in the image', () => {
  it("a frame's boxes land in the top page through its parents' iframe origins; an unplaceable frame's are null", () => {
    const placed = placeBoxes([
      { frameId: 0, parentFrameId: -1, boxes: frame({ children: [{ index: 0, x: 100, y: 50 }] }) },
      { frameId: 7, parentFrameId: 0, boxes: frame({ index: 0, children: [{ index: 1, x: 10, y: 10 }] }) },
      { frameId: 9, parentFrameId: 7, boxes: frame({ index: 1, boxes: [{ x: 5, y: 6, w: 20, h: 10, cards: [CARD] }] }) },
      { frameId: 11, parentFrameId: 42, boxes: frame({ index: 0, boxes: [{ x: 1, y: 1, w: 1, h: 1, cards: [OTHER] }] }) },
    ]);
    expect(placed).to.deep.equal([
      { box: { x: 115, y: 66, w: 20, h: 10 }, cards: [CARD] },
      { box: null, cards: [OTHER] },
    ]);
  });

  it('viewport, clip and device pixel ratio: mapped from the document to image pixels, padded, clamped', () => {
    const view = { scrollX: 0, scrollY: 300, width: 800, height: 600 };
    const box = { x: 100, y: 50, w: 200, h: 20 };
    // No clip: the viewport at 2x.
    expect(toImageRects([box], view, undefined, { width: 1600, height: 1200 })).to.deep.equal([{ x: 196, y: 96, w: 408, h: 48 }]);
    // A clip in document coordinates (Playwright's viewport and element shots), scale 1.
    expect(toImageRects([box], view, { x: 90, y: 340, width: 100, height: 100 }, { width: 100, height: 100 })).to.deep.equal([
      { x: 8, y: 8, w: 92, h: 24 },
    ]);
    // Full page (captureBeyondViewport): the clip is the whole document.
    expect(toImageRects([box], view, { x: 0, y: 0, width: 800, height: 3000 }, { width: 800, height: 3000 })).to.deep.equal([
      { x: 98, y: 348, w: 204, h: 24 },
    ]);
    // Only below the fold of a viewport shot: the image is not even decoded.
    expect(anyInRegion([{ x: 0, y: 2000, w: 10, h: 10 }], view, undefined)).to.equal(false);
    expect(anyInRegion([box], view, undefined)).to.equal(true);
    expect(anyInRegion([{ x: 0, y: 2000, w: 10, h: 10 }], view, { x: 0, y: 0, width: 800, height: 3000 })).to.equal(true);
    // Outside the image: left out.
    expect(toImageRects([{ x: 0, y: 5000, w: 10, h: 10 }], view, undefined, { width: 800, height: 600 })).to.deep.equal([]);
  });
});
