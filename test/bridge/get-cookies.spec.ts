// get_cookies reads only the sites of the asking session's own tabs: the bridge hands the extension
// exactly the tabs that session holds, refuses any other tab (another agent's, or one nobody holds)
// before the extension sees anything, validates the params, and never writes the answer (cookie
// values) to its action journal on disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { ACTION_JOURNAL_FILE } from '../../bridge/src/action-journal';
import type { BridgeServer } from '../../bridge/src/server';
import type { ActionMessage, ActionResultMessage, ErrorMessage, ProtocolMessage } from '../../schemas/generated/protocol';
import { RawPeer } from './raw-peer';

const isAction = (m: ProtocolMessage): m is ActionMessage => m.type === 'action';
const isResult = (m: ProtocolMessage): m is ActionResultMessage => m.type === 'action_result';

describe('get_cookies: only the session’s own tabs (real ws, raw peers)', () => {
  let bridge: BridgeServer;
  let dir: string;
  let logs: string[];
  const peers: RawPeer[] = [];
  const track = (p: RawPeer) => (peers.push(p), p);
  const ext = async () => track(await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret }));
  const agent = async () => track(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret }));
  const answer = (m: ActionMessage, result: Record<string, unknown> = {}) => ({
    type: 'action_result',
    original_action_id: m.action_id,
    action: m.action,
    ...(m.tab_id === undefined ? {} : { tab_id: m.tab_id }),
    status: 'success',
    outcome_details: { message: 'ok', result },
    new_simplified_state: null,
    error_info: null,
  });
  const lease = async (e: RawPeer, who: RawPeer, tabId: number) => {
    who.send({ type: 'action', action_id: `lease-${tabId}`, action: 'get_state', params: {}, tab_id: tabId });
    e.send(answer((await e.next(isAction)) as ActionMessage));
    expect(((await who.next(isResult)) as ActionResultMessage).status).to.equal('success');
  };
  const result = async (a: RawPeer, id: string) => (await a.next((m) => isResult(m) && m.original_action_id === id)) as ActionResultMessage;
  /** No action reached the extension (the agents' refused ones included). */
  const extensionGotNothing = async (e: RawPeer) => {
    e.send({ type: 'ping', sent_at: 1 });
    await e.next((m) => m.type === 'pong');
    const stray = await e.next(isAction, 200).catch(() => null);
    expect(stray, JSON.stringify(stray)).to.equal(null);
  };

  beforeEach(async () => {
    logs = [];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cookies-'));
    bridge = createBridge({
      port: 0,
      stateFile: path.join(dir, 'sessions.json'),
      logger: createLogger('debug', (l) => logs.push(l)),
      defaultTimeoutMs: 2000,
    });
    await bridge.start();
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without tab_ids the extension is asked for exactly the tabs this session holds', async () => {
    const e = await ext();
    const a = await agent();
    const other = await agent();
    await lease(e, a, 4);
    await lease(e, a, 5);
    await lease(e, other, 7);
    a.send({ type: 'action', action_id: 'k1', action: 'get_cookies', params: {} });
    const relayed = (await e.next(isAction)) as ActionMessage;
    expect(relayed.action).to.equal('get_cookies');
    expect(relayed.params).to.deep.equal({ tab_ids: [4, 5] });
    expect(relayed.tab_id).to.equal(5); // the session's current tab (its last action's)
    const secret = 'sess-v4lue-never-logged';
    e.send(
      answer(relayed, {
        cookies: [
          { name: 'sid', value: secret, domain: '127.0.0.1', path: '/', expires: -1, http_only: true, secure: false, same_site: 'Lax' },
        ],
        origins: ['http://127.0.0.1:1'],
        skipped_urls: [],
      }),
    );
    const r = await result(a, 'k1');
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(JSON.stringify(r.outcome_details?.result)).to.contain(secret);
    // The cookie went to the asking agent only, and to no log line or file on disk.
    other.send({ type: 'ping', sent_at: 2 });
    expect((await other.next(() => true)).type).to.equal('pong');
    expect(logs.join('\n')).not.to.contain(secret);
    const journalFile = path.join(dir, ACTION_JOURNAL_FILE);
    const journal = fs.existsSync(journalFile) ? fs.readFileSync(journalFile, 'utf8') : '';
    expect(journal, 'get_cookies is not journaled').not.to.contain('"k1"');
    const onDisk = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    expect(onDisk.join('\n'), 'nothing on disk holds the value').not.to.contain(secret);
  });

  it("a tab of another agent's session is TAB_NOT_LEASED and the extension is not asked", async () => {
    const e = await ext();
    const a = await agent();
    const other = await agent();
    await lease(e, a, 4);
    await lease(e, other, 7);
    a.send({ type: 'action', action_id: 'k2', action: 'get_cookies', params: { tab_ids: [4, 7] } });
    const r = await result(a, 'k2');
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(r.error_info?.details).to.deep.include({ tab_id: 7 });
    // The same through the message's tab_id.
    a.send({ type: 'action', action_id: 'k3', action: 'get_cookies', params: {}, tab_id: 7 });
    expect((await result(a, 'k3')).error_info?.error_code).to.equal('TAB_NOT_LEASED');
    await extensionGotNothing(e);
  });

  it('a tab nobody holds is not handed over by get_cookies (TAB_NOT_LEASED), nor is the active tab', async () => {
    const e = await ext();
    const a = await agent();
    a.send({ type: 'action', action_id: 'k4', action: 'get_cookies', params: {} });
    const none = await result(a, 'k4');
    expect(none.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(none.error_info?.message).to.match(/holds no tab yet.*get_state.*open_tab/);
    a.send({ type: 'action', action_id: 'k5', action: 'get_cookies', params: { tab_ids: [9] } });
    const free = await result(a, 'k5');
    expect(free.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(free.error_info?.message).to.contain('reads only the sites of your own tabs');
    await extensionGotNothing(e);
    // And the free tab is still nobody's: another agent can take it.
    const b = await agent();
    await lease(e, b, 9);
  });

  it('params are validated: a URL list that is not a list, or an unknown field, is INVALID_MESSAGE', async () => {
    const e = await ext();
    const a = await agent();
    await lease(e, a, 4);
    a.send({ type: 'action', action_id: 'v1', action: 'get_cookies', params: { urls: 'https://a.example/' } });
    const bad = (await a.next((m) => m.type === 'error')) as ErrorMessage;
    expect(bad.in_reply_to).to.equal('v1');
    expect(bad.error_info.error_code).to.equal('INVALID_MESSAGE');
    a.send({ type: 'action', action_id: 'v2', action: 'get_cookies', params: { tab_ids: [4], domain: 'bank.example' } });
    const extra = (await a.next((m) => m.type === 'error')) as ErrorMessage;
    expect(extra.error_info.error_code).to.equal('INVALID_MESSAGE');
    expect(extra.error_info.message).to.contain('"domain"');
    await extensionGotNothing(e);
  });
});
