// agent_sessions never outgrows its own schema: past one page the bridge sends the page the person
// needs most plus the total, so the side panel's agent list keeps updating and can say "N more"
// (it used to stop silently past 1000 sessions: the message failed its schema and was never sent).
import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { AGENT_SESSIONS_PAGE, pageOfSessions } from '../../bridge/src/agent-sessions';
import type { BridgeServer } from '../../bridge/src/server';
import type { AgentSessionInfo, AgentSessionsMessage } from '../../schemas/generated/protocol';
import { checkMessage } from '../../schemas/lib/wire';
import { RawPeer } from './raw-peer';

const info = (i: number, o: Partial<AgentSessionInfo> = {}): AgentSessionInfo => ({
  session_id: `session-${i}`,
  client: { name: `agent-${i}`, version: '1' },
  capabilities: [],
  connected: false,
  release_in_ms: 1000,
  tabs: [],
  task_ids: [],
  max_tabs: 10,
  ...o,
});

describe('agent_sessions pages (schema-valid with more sessions than a page)', function () {
  this.timeout(60_000);

  it('keeps 1,500 sessions schema-valid: one page, the total, and the sessions holding tabs or tasks first', () => {
    const all = Array.from({ length: 1500 }, (_, i) =>
      i === 1400
        ? info(i, { tabs: [{ tab_id: 7, url: 'https://example.com/' }] })
        : i === 1450
          ? info(i, { connected: true, release_in_ms: null, capabilities: ['accepts_tasks'] })
          : info(i),
    );
    const m: AgentSessionsMessage = { type: 'agent_sessions', ...pageOfSessions(all) };
    expect(checkMessage(m, 'bridge').ok).to.equal(true);
    expect(m.total).to.equal(1500);
    expect(m.sessions).to.have.length(AGENT_SESSIONS_PAGE);
    const ids = m.sessions.map((s) => s.session_id);
    expect(ids.slice(0, 3)).to.deep.equal(['session-0', 'session-1', 'session-2']); // oldest first
    expect(ids).to.include('session-1400'); // holds a tab: the person can release it
    expect(ids).to.include('session-1450'); // accepts tasks: "Run with" offers it
    // The whole list, unpaged, is what failed before: more than the schema's 1000.
    expect(checkMessage({ type: 'agent_sessions', sessions: all }, 'bridge').ok).to.equal(false);
  });

  describe('over real ws', () => {
    let bridge: BridgeServer;
    const peers: RawPeer[] = [];
    afterEach(async () => {
      for (const p of peers.splice(0)) p.close();
      await bridge.close();
    });

    it(`sends the extension a page of ${AGENT_SESSIONS_PAGE} and the total once more agents than that are connected, and keeps updating`, async () => {
      bridge = createBridge({ port: 0, logger: createLogger('silent'), maxAgentSessions: 500 });
      await bridge.start();
      const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
      peers.push(ext);
      const n = AGENT_SESSIONS_PAGE + 20;
      for (let i = 0; i < n; i += 20)
        peers.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, (_, j) =>
              RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, clientName: `agent-${i + j}` }),
            ),
          )),
        );
      const full = (await ext.next((m) => m.type === 'agent_sessions' && m.total === n)) as AgentSessionsMessage;
      expect(full.sessions).to.have.length(AGENT_SESSIONS_PAGE);
      expect(checkMessage(full, 'bridge').ok).to.equal(true);
      // One more agent: the list still updates (total n + 1).
      peers.push(await RawPeer.hello(bridge.agentUrl, 'agent', { secret: bridge.secrets.agent_secret, clientName: 'late' }));
      const more = (await ext.next((m) => m.type === 'agent_sessions' && m.total === n + 1)) as AgentSessionsMessage;
      expect(more.sessions).to.have.length(AGENT_SESSIONS_PAGE);
    });
  });
});
