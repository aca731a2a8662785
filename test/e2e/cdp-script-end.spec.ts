// An agent's end ends its script in the person's pages, in real Chromium with the built extension,
// the bridge's real CDP endpoint and puppeteer-core: a client plants a key logger (a keydown listener
// that beacons every key to a server, in the page and as an init script), then ends by disconnecting,
// by the person's Disconnect in the side panel, or by the person revoking its URL. After each, the
// keys the person types reach nobody, the page was reloaded only once the debugger had left (else
// the init script would be back), and the panel says which tab was reloaded for which agent. With
// "keep the page" in Settings the page is not reloaded and the panel warns that the script may still
// run. The classic evaluate action follows the same rule when its agent disconnects.
import type http from 'node:http';

import { expect } from 'chai';
import puppeteer, { type Browser, type KeyInput } from 'puppeteer-core';

import { mintCdpClient, revokeCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { until } from '../harness/until';
import { clearSettings, setSettings } from './worker-actions.helpers';

type Page = Awaited<ReturnType<Harness['openPage']>>;

/** Key beacons the fixture server received: `${case}:${who}:${key}` (who: page, agent, init). */
const hits: string[] = [];
function beacon(req: http.IncomingMessage) {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  hits.push(`${q.get('c') ?? ''}:${q.get('who') ?? ''}:${q.get('k') ?? ''}`);
  return { status: 204, body: '' };
}

/** The page's own keyup beacon: proof a key reached the page, sent after any keydown listener ran. */
const pageHtml = (c: string) =>
  `<h1>Notes ${c}</h1><textarea id="t"></textarea>` +
  `<script>addEventListener('keyup', (e) => navigator.sendBeacon('/beacon?c=${c}&who=page&k=' + e.key));</script>`;

/** The key logger a client plants: as script in the page now, and as an init script for its next documents. */
const logger = (c: string, who: string) =>
  `addEventListener('keydown', (e) => navigator.sendBeacon('/beacon?c=${c}&who=${who}&k=' + e.key))`;

/** The person types one key in the page; returns the beacons of that key (the page's own comes last). */
async function typeKey(person: Page, c: string, key: KeyInput): Promise<string[]> {
  await person.focus('#t');
  await person.keyboard.press(key);
  await until(`the page's own beacon of "${key}"`, 5000, () => hits.includes(`${c}:page:${key}`));
  // A keydown beacon leaves before the keyup one, yet two requests may land out of order: a moment more.
  await new Promise((r) => setTimeout(r, 300));
  return hits.filter((x) => x.startsWith(`${c}:`) && x.endsWith(`:${key}`));
}

const docId = (person: Page) => person.evaluate(() => performance.timeOrigin);

describe('e2e: the end of a CDP client ends its script in the page (real Chromium, real CDP endpoint)', function () {
  this.timeout(120_000);
  let h: Harness;
  let panel: Page;
  useHarness((started) => (h = started), {
    prepare: async (started) => {
      started.fixtures.route('/beacon', beacon);
      panel = await openPanel(started.launched.browser);
    },
  });

  /** The person's page, a client holding it with its key logger planted, and the logger shown working. */
  async function planted(c: string): Promise<{ person: Page; client: Browser; tabId: number; sessionId: string; name: string }> {
    const url = h.fixtures.html(`/script-end-${c}`, pageHtml(c), `Notes ${c}`);
    const person = await h.openPage(url);
    const name = `logger-${c}`;
    const { url: base } = mintCdpClient(h.configDir, { name, maxTabs: 1 });
    const version = (await (await fetch(`${base(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const client = await puppeteer.connect({ browserWSEndpoint: version.webSocketDebuggerUrl, defaultViewport: null });
    const page = (await client.pages()).find((p) => p.url() === url);
    if (!page) throw new Error(`the handed-over tab is not among ${(await client.pages()).map((p) => p.url()).join(', ')}`);
    await page.evaluateOnNewDocument(logger(c, 'init'));
    await page.evaluate(logger(c, 'agent'));
    expect(await typeKey(person, c, 'a')).to.include(`${c}:agent:a`);
    const session = await until('the client holds the tab', 5000, () =>
      (h.bridge.status()['sessions'] as { session_id: string; client: { name: string } | null; tabs: { tab_id: number }[] }[]).find(
        (s) => s.client?.name === `cdp:${name}`,
      ),
    );
    return { person, client, tabId: session.tabs[0]!.tab_id, sessionId: session.session_id, name };
  }

  /** The panel's line for the tab, once it says `outcome`. */
  const panelLine = (tabId: number, outcome: string) =>
    until(`the panel's "${outcome}" line for tab ${tabId}`, 10_000, () =>
      panel.evaluate(
        (id, o) =>
          document.querySelector<HTMLElement>(`#script-end-list li[data-tab-id="${id}"][data-outcome="${o}"]`)?.textContent ?? null,
        tabId,
        outcome,
      ),
    );

  /** The end reloads the page once the debugger left: no key of the person reaches the agent any more. */
  async function endsWithReload(c: string, end: (p: Awaited<ReturnType<typeof planted>>) => Promise<void>): Promise<void> {
    const p = await planted(c);
    const before = await docId(p.person);
    const t0 = Date.now();
    try {
      await end(p);
      await until('a new document in the tab', 10_000, async () => (await docId(p.person).catch(() => before)) !== before);
      const reloaded = Date.now() - t0;
      await p.person.waitForSelector('#t');
      expect(await typeKey(p.person, c, 'z'), 'keys typed after the end').to.deep.equal([`${c}:page:z`]);
      expect(await panelLine(p.tabId, 'reloaded')).to.equal(
        `${p.name} (CDP client) ended: reloaded “Notes ${c}” (${new URL(h.fixtures.origin).host}), so no script it ran there keeps running.`,
      );
      console.log(`      ${c}: the page reloaded ${reloaded} ms after the end`);
    } finally {
      await p.client.disconnect().catch(() => undefined);
    }
  }

  it('the client disconnects: the page is reloaded and the panel says so', async () => {
    await endsWithReload('disconnect', (p) => p.client.disconnect());
  });

  it("the person's Disconnect in the side panel: the page is reloaded and the panel says so", async () => {
    await endsWithReload('stop', async (p) => {
      const stop = `#agent-list > li[data-session-id="${p.sessionId}"] .agent button`;
      await panel.waitForSelector(stop, { visible: true, timeout: 10_000 });
      await panel.click(stop);
    });
  });

  it('the person revokes the URL (cdp-url --revoke): the page is reloaded and the panel says so', async () => {
    await endsWithReload('revoke', (p) => {
      expect(revokeCdpClient(h.configDir, p.name)).to.equal(true);
      return Promise.resolve();
    });
  });

  it('with "keep the page" in Settings: the page is not reloaded and the panel warns that the script may still run', async () => {
    await setSettings(h, { agent_script_end: 'keep' });
    try {
      const p = await planted('keep');
      const before = await docId(p.person);
      await p.client.disconnect();
      const line = await panelLine(p.tabId, 'kept');
      expect(line)
        .to.contain('logger-keep (CDP client) ended')
        .and.contain('“Notes keep”')
        .and.contain('may still run')
        .and.contain('Reload that tab');
      expect(await panel.$eval(`#script-end-list li[data-tab-id="${p.tabId}"]`, (e) => e.getAttribute('role'))).to.equal('alert');
      expect(await docId(p.person), 'the page was reloaded').to.equal(before);
      // Exactly what the person was warned of: the script still runs.
      expect(await typeKey(p.person, 'keep', 'k')).to.include('keep:agent:k');
    } finally {
      await clearSettings(h, ['agent_script_end']);
    }
  });

  it("a classic agent's evaluate: its page is reloaded when the agent disconnects", async () => {
    const c = 'evaluate';
    const person = await h.openPage(h.fixtures.html(`/script-end-${c}`, pageHtml(c), `Notes ${c}`));
    await setSettings(h, { allow_evaluate: true });
    const agent = await h.connectAgent();
    try {
      const r = await agent.call('evaluate', { expression: logger(c, 'agent') });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(await typeKey(person, c, 'a')).to.include(`${c}:agent:a`);
      const before = await docId(person);
      await agent.close();
      await until('a new document in the tab', 10_000, async () => (await docId(person).catch(() => before)) !== before);
      await person.waitForSelector('#t');
      expect(await typeKey(person, c, 'z')).to.deep.equal([`${c}:page:z`]);
      expect(await panelLine(r.tab_id as number, 'reloaded')).to.match(/ended: reloaded “Notes evaluate”/);
    } finally {
      await clearSettings(h, ['allow_evaluate']);
    }
  });
});
