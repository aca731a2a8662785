// content-channel.ts with a fake chrome: requests go over one port per frame; a port that closes
// before the content script's hello never reached one (the request goes the old way, sendMessage,
// which injects the script); a port that closes after it means the document went away (portClosed);
// a frame that commits a new document gets a new port.
import { expect } from 'chai';

import type { ChannelOutcome } from '../../extension/src/background/connection/content-channel';

type Listener = (...args: unknown[]) => void;
const event = () => {
  const ls: Listener[] = [];
  return { addListener: (l: Listener) => ls.push(l), fire: (...a: unknown[]) => ls.forEach((l) => l(...a)) };
};

class FakePort {
  onMessage = event();
  onDisconnect = event();
  posted: { kind: string; id: number; request: unknown }[] = [];
  disconnected = false;
  postMessage(m: { kind: string; id: number; request: unknown }): void {
    if (this.disconnected) throw new Error('Attempting to use a disconnected port object');
    this.posted.push(m);
  }
  disconnect(): void {
    this.disconnected = true;
  }
}

const ports: FakePort[] = [];
const sent: unknown[] = [];
let lastError: { message: string } | undefined;
/** sendMessage finds no content script until executeScript injects one (a tab older than the extension). */
let noReceiver = false;
const onCommitted = event();
const fakeChrome = {
  runtime: {
    get lastError() {
      return lastError;
    },
  },
  tabs: {
    connect: () => {
      const p = new FakePort();
      ports.push(p);
      return p;
    },
    sendMessage: async (_tab: number, m: unknown) => {
      sent.push(m);
      if (noReceiver) throw new Error('Could not establish connection. Receiving end does not exist.');
      return { ok: true, message: 'by message', result: {} };
    },
  },
  scripting: {
    executeScript: async () => {
      noReceiver = false; // the content script is there now
      return [];
    },
  },
  webNavigation: { onCommitted },
};

let sendToContent: typeof import('../../extension/src/background/connection/content-channel').sendToContent;
let forgetTabLinks: typeof import('../../extension/src/background/connection/content-channel').forgetTabLinks;
const req = { channel: 'bux', kind: 'run_action', action: 'click', params: { element_id: 'e1' } } as const;
const tick = () => new Promise((r) => setTimeout(r, 0));
const close = (p: FakePort, why?: string) => {
  lastError = why === undefined ? undefined : { message: why };
  p.disconnected = true;
  p.onDisconnect.fire(p);
  lastError = undefined;
};

describe('content channel (ports)', () => {
  // The fake chrome only while these tests run (and the module loads): other specs import modules that look for one.
  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    const channel = await import('../../extension/src/background/connection/content-channel');
    channel.installContentChannel();
    ({ sendToContent, forgetTabLinks } = channel);
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });

  beforeEach(() => {
    ports.length = 0;
    sent.length = 0;
  });

  it('answers over one port per frame, by request id, and reuses it', async () => {
    const first = sendToContent(1, req);
    const port = ports[0]!;
    port.onMessage.fire({ kind: 'hello' });
    port.onMessage.fire({ kind: 'answer', id: port.posted[0]!.id, response: { ok: true, message: 'one', result: {} } });
    expect(((await first) as Extract<ChannelOutcome, { ok: true }>).response).to.include({ message: 'one' });
    const second = sendToContent(1, req);
    expect(ports).to.have.length(1);
    port.onMessage.fire({ kind: 'answer', id: port.posted[1]!.id, response: { ok: true, message: 'two', result: {} } });
    expect(((await second) as Extract<ChannelOutcome, { ok: true }>).response).to.include({ message: 'two' });
    expect(sent).to.have.length(0);
    close(port);
  });

  it('falls back to sendMessage when the port closes before any content script took it', async () => {
    const asked = sendToContent(2, req);
    close(ports[0]!, 'Could not establish connection. Receiving end does not exist.');
    const out = await asked;
    expect(out.ok).to.equal(true);
    expect(sent).to.have.length(1);
  });

  it('a port that closes after its hello: the document went away (portClosed), never asked again', async () => {
    const asked = sendToContent(3, req);
    ports[0]!.onMessage.fire({ kind: 'hello' });
    close(ports[0]!);
    const out = await asked;
    expect(out.ok).to.equal(false);
    expect(out.ok === false && out.portClosed).to.equal(true);
    expect(sent).to.have.length(0);
    // The next request opens a new port.
    void sendToContent(3, req);
    expect(ports).to.have.length(2);
  });

  it('a frame committing a new document gets a new port; the old one ends its request in flight first', async () => {
    const asked = sendToContent(4, req, { frameId: 7 });
    const old = ports[0]!;
    old.onMessage.fire({ kind: 'hello' });
    onCommitted.fire({ tabId: 4, frameId: 7 });
    expect(old.disconnected).to.equal(false); // a request is in flight on it
    void sendToContent(4, req, { frameId: 7 });
    expect(ports).to.have.length(2);
    old.onMessage.fire({ kind: 'answer', id: old.posted[0]!.id, response: { ok: true, message: 'late', result: {} } });
    expect((await asked).ok).to.equal(true);
    expect(old.disconnected).to.equal(true);
    await tick();
  });

  it('a tab closing ends its requests in flight at once (our own disconnect fires no onDisconnect here)', async () => {
    const asked = sendToContent(5, req);
    const port = ports[0]!;
    port.onMessage.fire({ kind: 'hello' });
    forgetTabLinks(5);
    const out = await Promise.race([asked, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 200))]);
    expect(out, 'the request was left waiting for its timeout').to.not.equal('pending');
    expect(out !== 'pending' && out.ok === false && out.portClosed).to.equal(true);
    expect(port.disconnected).to.equal(true);
  });

  it("a typing action's last progress before its document went away comes back with the failure", async () => {
    const typing = { channel: 'bux', kind: 'run_action', action: 'type', params: { selector: '#f', text: 'abcdef' } } as const;
    const asked = sendToContent(6, typing);
    const port = ports[0]!;
    port.onMessage.fire({ kind: 'hello' });
    const id = port.posted[0]!.id;
    port.onMessage.fire({ kind: 'progress', id, progress: { done: 2, total: 6 } });
    port.onMessage.fire({ kind: 'progress', id, progress: { done: 3, total: 6 } });
    close(port);
    const out = await asked;
    expect(out.ok).to.equal(false);
    if (out.ok) return;
    expect(out).to.include({ portClosed: true, tracked: true });
    expect(out.progress).to.deep.equal({ done: 3, total: 6 });
  });

  it('a request that needed the script injected goes over a port after the injection, where progress can be heard', async () => {
    noReceiver = true;
    const asked = sendToContent(7, req);
    close(ports[0]!, 'Could not establish connection. Receiving end does not exist.');
    for (let i = 0; i < 10 && ports.length < 2; i++) await tick();
    const second = ports[1];
    expect(second, 'a port after the injection').to.not.equal(undefined);
    second!.onMessage.fire({ kind: 'hello' });
    second!.onMessage.fire({ kind: 'answer', id: second!.posted[0]!.id, response: { ok: true, message: 'typed', result: {} } });
    const out = await asked;
    expect(out.ok).to.equal(true);
    expect(sent, 'only the first try went by message').to.have.length(1);
  });
});
