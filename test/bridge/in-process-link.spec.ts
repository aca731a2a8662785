// An agent inside the bridge's process (the CDP endpoint) reaches the relay over an in-process link
// instead of a loopback socket: the link itself (order, copies, close, size), and the relay treating
// such a peer exactly as a WebSocket agent (handshake refused without the secret, messages validated,
// leases, a cdp_result's text passed through for the CDP reply).
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { resultText } from '../../bridge/client/result-text';
import { linkPair } from '../../bridge/common/in-process-link';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, CdpCommandMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { RawPeer } from './raw-peer';

const opened = (end: { once(e: 'open', f: () => void): unknown }) => new Promise<void>((r) => end.once('open', () => r()));

describe('in-process agent link', () => {
  describe('the link', () => {
    it('delivers text frames in order, after the sender returns, and never a frame sent after close', async () => {
      const { client, server } = linkPair(1024);
      await opened(client);
      const got: string[] = [];
      server.on('message', (t) => got.push(t));
      client.send('a');
      client.send('b');
      expect(got, 'nothing runs inside the sender').to.deep.equal([]);
      const closed = new Promise<[number, string]>((r) => server.once('close', (c, why) => r([c, why.toString()])));
      client.close(1000, 'bye');
      client.send('after');
      expect(await closed).to.deep.equal([1000, 'bye']);
      expect(got).to.deep.equal(['a', 'b']);
      expect(client.readyState).to.equal(client.CLOSED);
      expect(server.readyState).to.equal(server.CLOSED);
    });

    it('terminate reads as 1006 on both ends, and a frame to the relay over its limit closes the link with 1009', async () => {
      const a = linkPair(1024);
      await opened(a.client);
      const codes: number[] = [];
      a.client.once('close', (c) => codes.push(c));
      a.server.once('close', (c) => codes.push(c));
      a.server.terminate();
      await new Promise((r) => setImmediate(r));
      expect(codes).to.deep.equal([1006, 1006]);
      const b = linkPair(1024);
      await opened(b.client);
      const toAgent: string[] = [];
      b.client.on('message', (t) => toAgent.push(t));
      b.server.send('y'.repeat(2000)); // the relay's frame to the agent: a ws client's limit, not the relay's own
      const big = new Promise<number>((r) => b.client.once('close', (c) => r(c)));
      b.client.send('x'.repeat(2000));
      expect(await big).to.equal(1009);
      expect(toAgent.map((t) => t.length)).to.deep.equal([2000]);
    });
  });

  describe('the relay', () => {
    let bridge: BridgeServer;
    const peers: RawPeer[] = [];
    const clients: AgentClient[] = [];
    beforeEach(async () => {
      bridge = createBridge({ port: 0, logger: createLogger('silent'), defaultTimeoutMs: 2000 });
      await bridge.start();
    });
    afterEach(async () => {
      for (const c of clients.splice(0)) await c.close().catch(() => undefined);
      for (const p of peers.splice(0)) p.close();
      await bridge.close();
    });

    it('refuses an in-process peer that skips the handshake or proves a wrong secret, as on /agent', async () => {
      const early = bridge.connectInProcessAgent();
      await opened(early);
      const said: ProtocolMessage[] = [];
      early.on('message', (t) => said.push(JSON.parse(t) as ProtocolMessage));
      const closed = new Promise<number>((r) => early.once('close', (c) => r(c)));
      early.send(JSON.stringify({ type: 'action', action_id: 'a1', action: 'list_tabs', params: {} }));
      expect(await closed).to.equal(1008);
      expect(said[0]).to.include({ type: 'error' });

      // A wrong proof: refused with the same close code as on /agent, after the same (gated) answer.
      const guesser = bridge.connectInProcessAgent();
      const heard: ProtocolMessage[] = [];
      guesser.on('message', (t) => heard.push(JSON.parse(t) as ProtocolMessage));
      const shut = new Promise<number>((r) => guesser.once('close', (c) => r(c)));
      await opened(guesser);
      const client = { name: 'guesser', version: '0' };
      guesser.send(
        JSON.stringify({
          type: 'hello',
          role: 'agent',
          protocol_version: PROTOCOL_VERSION,
          client,
          capabilities: [],
          client_nonce: 'A'.repeat(32),
        }),
      );
      while (heard.length === 0) await new Promise((r) => setImmediate(r));
      expect(heard[0]).to.include({ type: 'auth_challenge' });
      guesser.send(JSON.stringify({ type: 'auth_response', proof: '0'.repeat(64) }));
      expect(await shut).to.equal(CLOSE_CODES.secretRefused);
      expect((bridge.status()['agents'] as unknown[]).length).to.equal(0);
    });

    it('validates every frame of an in-process agent (an invalid one is answered INVALID_MESSAGE, the link stays)', async () => {
      const c = await AgentClient.connect({
        url: 'in-process',
        secret: bridge.secrets.agent_secret,
        inProcess: () => bridge.connectInProcessAgent(),
      });
      clients.push(c);
      const refused = new Promise<string>((r) => c.once('protocol-error', (info: { error_code: string }) => r(info.error_code)));
      c.sendUnchecked(JSON.stringify({ type: 'action', action_id: 'x', action: 'no_such_action', params: {} }));
      expect(await refused).to.equal('INVALID_MESSAGE');
      expect(c.hello?.protocol_version).to.equal(PROTOCOL_VERSION);
      expect((bridge.status()['agents'] as unknown[]).length).to.equal(1);
    });

    it("relays a CDP command of an in-process agent on its leased tab only, and its answer's result text unchanged", async () => {
      const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
      peers.push(ext);
      const c = await AgentClient.connect({
        url: 'in-process',
        secret: bridge.secrets.agent_secret,
        clientName: 'cdp:link',
        inProcess: () => bridge.connectInProcessAgent(),
      });
      clients.push(c);
      const refused = await c.cdp({ tabId: 4, method: 'Runtime.evaluate', params: { expression: '1' } });
      expect(refused.error_info?.error_code).to.equal('TAB_NOT_LEASED');
      const attaching = c.call('cdp_attach', {}, { tabId: 4 });
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
      expect((await attaching).status).to.equal('success');
      const params = { expression: 'x' };
      const answered = c.cdp({ tabId: 4, method: 'Runtime.evaluate', params });
      params.expression = 'changed after sending';
      const sent = (await ext.next((m) => m.type === 'cdp_command')) as CdpCommandMessage;
      expect(sent.params, 'the bridge got a copy').to.deep.equal({ expression: 'x' });
      // Chrome's result as the worker wrote it, with an escape JSON.stringify would not write.
      const resultJson = '{"result":{"type":"string","value":"a\\u0041 b"}}';
      ext.sendText(`{"type":"cdp_result","original_command_id":${JSON.stringify(sent.command_id)},"tab_id":4,"result":${resultJson}}`);
      const r = await answered;
      expect(r.result).to.deep.equal({ result: { type: 'string', value: 'aA b' } });
      expect(resultText(r), 'the reply to the CDP client can carry these very bytes').to.equal(resultJson);
      // cdpText (the CDP endpoint's hot path) gets the same bytes without parsing them again; an error stays a message.
      const asText = c.cdpText({ tabId: 4, method: 'Runtime.evaluate', params });
      const again = (await ext.next((m) => m.type === 'cdp_command')) as CdpCommandMessage;
      ext.sendText(`{"type":"cdp_result","original_command_id":${JSON.stringify(again.command_id)},"tab_id":4,"result":${resultJson}}`);
      expect(await asText).to.deep.equal({ json: resultJson });
      const failing = c.cdpText({ tabId: 4, method: 'Runtime.evaluate', params });
      const third = (await ext.next((m) => m.type === 'cdp_command')) as CdpCommandMessage;
      const cdp_error = { code: -32000, message: 'no' };
      const error_info = {
        error_code: 'CDP_ERROR',
        message: 'Chrome said no.',
        component_origin: 'background_script',
        details: { cdp_error },
      };
      ext.send({ type: 'cdp_result', original_command_id: third.command_id, tab_id: 4, error_info } as ProtocolMessage);
      expect(await failing).to.deep.include({ type: 'cdp_result', error_info });
    });
  });
});
