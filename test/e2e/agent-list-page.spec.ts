// The side panel's agent list past one page, in real Chromium with the built extension: with more
// agent sessions than the bridge's agent_sessions schema allows (1000), the list used to stop
// updating silently (the message failed its schema and was never sent). Now the bridge sends one
// page plus the total and the panel says how many more there are and where to see them.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { AGENT_SESSIONS_PAGE } from '../../bridge/src/agent-sessions';
import { RawPeer } from '../bridge/raw-peer';
import { type Harness, startHarness } from '../harness/harness';
import { artifactShot, openPanel } from '../harness/panel';

const rows = (panel: Page) => panel.$$eval('#agent-list > li[data-session-id]', (l) => l.length);
const more = (panel: Page) => panel.$eval('#agent-list', (l) => l.querySelector('.agents-more')?.textContent ?? '');

describe('side panel: agent list past one page (real Chromium)', function () {
  this.timeout(180_000);
  let h: Harness;
  let panel: Page;
  const agents: RawPeer[] = [];

  before(async () => {
    h = await startHarness({ bridgeOptions: { maxAgentSessions: 2000 } });
    panel = await openPanel(h.launched.browser);
  });
  after(async () => {
    for (const a of agents.splice(0)) a.close();
    await h?.close();
  });

  const connect = async (n: number, prefix: string) => {
    for (let i = 0; i < n; i += 50)
      agents.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, (_, j) =>
            RawPeer.hello(h.bridge.agentUrl, 'agent', { secret: h.secrets.agent_secret, clientName: `${prefix}-${i + j}` }),
          ),
        )),
      );
  };

  it('shows one page of agents and "N more" with where to see them all, and keeps updating past 1000 sessions', async () => {
    await connect(1005, 'bulk');
    await panel.waitForFunction(() => (document.querySelector('#agent-list .agents-more')?.textContent ?? '').startsWith('905 more'), {
      timeout: 60_000,
    });
    expect(await rows(panel)).to.equal(AGENT_SESSIONS_PAGE);
    expect(await more(panel)).to.match(/^905 more agent sessions not listed here .* See all at http:\/\/127\.0\.0\.1:\d+\/status/);
    await artifactShot('agent-list-page', panel, 'more-than-a-page');
    // One more agent: the list still updates.
    await connect(1, 'late');
    await panel.waitForFunction(() => (document.querySelector('#agent-list .agents-more')?.textContent ?? '').startsWith('906 more'), {
      timeout: 30_000,
    });
    // Back under one page: no "more" line.
    for (const a of agents.splice(0, 906)) a.ws.close(1000);
    await panel.waitForFunction(() => document.querySelector('#agent-list .agents-more') === null, { timeout: 30_000 });
    expect(await rows(panel)).to.equal(100);
  });
});
