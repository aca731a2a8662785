// A CDP client sees a tab's answers and events in the order Chrome sent them. The extension sends a
// cdp_result and the tab's next events back to back; the bridge must not let the events
// overtake the answer on the way to the agent session (Playwright drops an out-of-process frame's
// execution contexts that arrive before its Page.getFrameTree answer, and then waits for the frame
// forever). Driven by hand over real ws, the extension's messages written in one TCP chunk, as a busy
// worker's are.
import { expect } from 'chai';
import sinon from 'sinon';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, CdpCommandMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

describe('bridge: CDP commands, answers and events', () => {
  let bridge: BridgeServer;
  const peers: RawPeer[] = [];

  beforeEach(async () => {
    bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 2000 });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
  });

  /** Writes several messages in one TCP chunk (as a busy worker's arrive), not one write each. */
  function sendTogether(peer: RawPeer, messages: object[]): void {
    const socket = (peer.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    socket.cork();
    for (const m of messages) peer.send(m as ProtocolMessage);
    process.nextTick(() => socket.uncork());
  }

  /** An extension and a CDP client's agent session holding tab 4 through cdp_attach. */
  async function attached(): Promise<{ ext: RawPeer; agent: RawPeer }> {
    const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    const agent = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, clientName: 'cdp:order' });
    peers.push(ext, agent);
    agent.send({ type: 'action', action_id: 'attach', action: 'cdp_attach', params: {}, tab_id: 4 });
    const attach = (await ext.next((m) => m.type === 'action')) as ActionMessage;
    ext.send({
      type: 'action_result',
      original_action_id: attach.action_id,
      action: 'cdp_attach',
      tab_id: 4,
      status: 'success',
      outcome_details: { message: 'Attached.', result: { tab_id: 4, target_id: 'T4', url: 'https://a.test/', title: 'A' } },
      new_simplified_state: null,
      error_info: null,
    });
    await agent.next((m) => m.type === 'action_result');
    return { ext, agent };
  }

  it("the lease learns where a CDP client's tab went from its main frame's commit (origin and path only, for /status)", async () => {
    const { ext, agent } = await attached();
    ext.send({
      type: 'cdp_event',
      tab_id: 4,
      method: 'Page.frameNavigated',
      params: { frame: { id: 'F', parentId: 'T4', url: 'https://ads.test/frame' } },
    } as ProtocolMessage);
    ext.send({
      type: 'cdp_event',
      tab_id: 4,
      method: 'Page.frameNavigated',
      params: { frame: { id: 'T4', url: 'https://b.test/cart?token=s3cret#x' } },
    } as ProtocolMessage);
    await agent.next(
      (m) => m.type === 'cdp_event' && m.method === 'Page.frameNavigated' && !String(JSON.stringify(m)).includes('ads.test'),
    );
    const tabs = (bridge.status()['sessions'] as { tabs: { tab_id: number; url: string | null }[] }[]).flatMap((s) => s.tabs);
    expect(tabs).to.deep.equal([{ tab_id: 4, url: 'https://b.test/cart' }]);
  });

  it('an answer the extension sent before events reaches the agent before them', async () => {
    const { ext, agent } = await attached();
    for (let round = 0; round < 20; round++) {
      agent.send({
        type: 'cdp_command',
        command_id: `send-${round}`,
        method: 'Page.getFrameTree',
        params: {},
        session_id: 'CHILD',
        tab_id: 4,
      });
      const send = (await ext.next((m) => m.type === 'cdp_command')) as CdpCommandMessage;
      const event = (n: number) => ({
        type: 'cdp_event',
        tab_id: 4,
        session_id: 'CHILD',
        method: 'Runtime.executionContextCreated',
        params: { context: { id: n } },
      });
      sendTogether(ext, [
        { type: 'cdp_result', original_command_id: send.command_id, tab_id: 4, result: { frameTree: {} } },
        event(1),
        event(2),
      ]);
      const order: string[] = [];
      for (let i = 0; i < 3; i++) {
        const m = await agent.next((x) => x.type === 'cdp_result' || x.type === 'cdp_event');
        order.push(m.type === 'cdp_event' ? `event ${String((m.params as { context: { id: number } }).context.id)}` : 'answer');
      }
      expect(order, `round ${round}`).to.deep.equal(['answer', 'event 1', 'event 2']);
    }
  });

  it('a CDP command sent while the extension is away is answered NO_EXTENSION_CONNECTED after 10 s, not at its long timeout', async () => {
    const { ext, agent } = await attached();
    ext.close();
    await agent.next((m) => m.type === 'extension_status' && !m.connected);
    // The 10 s wait runs on a fake clock (sockets stay real): only timers and Date are faked, and the
    // clock is moved in small steps, each followed by real turns of the event loop for the socket I/O.
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const t0 = Date.now();
      // A CDP client's commands carry a long timeout (a page's own long evaluation is legitimate).
      agent.send({
        type: 'cdp_command',
        command_id: 'while-away',
        method: 'Runtime.evaluate',
        params: { expression: '1' },
        tab_id: 4,
        timeout_ms: 600_000,
      });
      const answered = agent.next((m) => m.type === 'cdp_result', 15_000);
      let settled = false;
      void answered.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) {
        for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
        await clock.tickAsync(250);
      }
      const r = await answered;
      const waited = Date.now() - t0;
      expect(r.type === 'cdp_result' && r.error_info?.error_code).to.equal('NO_EXTENSION_CONNECTED');
      expect(waited, 'it waited for the extension to come back first').to.be.within(9_000, 12_000);
    } finally {
      clock.restore();
    }
  });

  it("a CDP command sent while the extension's connection is closing waits for its next connection instead of failing at once", async function () {
    this.timeout(20_000);
    const { ext, agent } = await attached();
    // The worker goes away: its close frame reaches the bridge, but the socket is not gone yet (the
    // bridge's connection is closing, not closed), as in the first moments of a service worker restart.
    const socket = (ext.ws as unknown as { _socket: { write(b: Buffer): void; pause(): void } })._socket;
    socket.pause();
    socket.write(Buffer.from([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe9])); // masked close frame, code 1001
    await new Promise((r) => setTimeout(r, 300));
    agent.send({
      type: 'cdp_command',
      command_id: 'while-closing',
      method: 'Runtime.evaluate',
      params: { expression: '1' },
      tab_id: 4,
      timeout_ms: 600_000,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(
      agent.received.filter((m) => m.type === 'cdp_result'),
      'answered before the extension came back',
    ).to.deep.equal([]);
    const back = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
    peers.push(back);
    const relayed = (await back.next((m) => m.type === 'cdp_command', 5000)) as CdpCommandMessage;
    expect(relayed).to.deep.include({ method: 'Runtime.evaluate', tab_id: 4 });
  });

  it('a cdp_command for a tab the session does not hold is refused TAB_NOT_LEASED and never reaches the extension', async () => {
    const { ext } = await attached();
    const other = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, clientName: 'cdp:other' });
    peers.push(other);
    // Tab 4 is the first session's; tab 9 is nobody's (never attached).
    for (const tabId of [4, 9]) {
      other.send({ type: 'cdp_command', command_id: `c-${tabId}`, tab_id: tabId, method: 'Runtime.evaluate', params: { expression: '1' } });
      const r = await other.next((m) => m.type === 'cdp_result');
      expect(r).to.deep.include({ type: 'cdp_result', original_command_id: `c-${tabId}`, tab_id: tabId });
      expect(r.type === 'cdp_result' && r.error_info?.error_code, `tab ${tabId}`).to.equal('TAB_NOT_LEASED');
      expect(r.type === 'cdp_result' && r.error_info?.message, `tab ${tabId}`).to.match(/open_tab|cdp_attach/);
    }
    expect(ext.received.filter((m) => m.type === 'cdp_command')).to.deep.equal([]);
  });

  it('an answer from another tab than the command was sent to is refused, never passed on', async () => {
    const { ext, agent } = await attached();
    agent.send({ type: 'cdp_command', command_id: 'c1', tab_id: 4, method: 'Runtime.evaluate', params: { expression: '1' } });
    const sent = (await ext.next((m) => m.type === 'cdp_command')) as CdpCommandMessage;
    ext.send({ type: 'cdp_result', original_command_id: sent.command_id, tab_id: 5, result: { secret: 'of tab 5' } });
    const r = await agent.next((m) => m.type === 'cdp_result');
    expect(r.type === 'cdp_result' && r.error_info?.error_code).to.equal('EXTENSION_INTERNAL_ERROR');
    expect(JSON.stringify(r)).not.to.include('of tab 5');
  });
});
