// What a CDP client reads of a tab it holds is the page, as on Chromium's own endpoint: nothing of
// our "Agent is controlling this tab" bar (a node in the page for classic and MCP agents) shows up in
// DOM.getDocument with pierce, DOM.querySelectorAll, the accessibility tree, DOMSnapshot, evaluate
// results or a screenshot. The same Playwright client reads the same fixture page through Chromium's
// own --remote-debugging-port and through our endpoint, and the readings must be equal. The person
// still sees which tab is driven (its tab group) and ends the client from the side panel. The tab
// showed a classic agent's bar just before the client got it, which proves the bar was live in this
// very run and that it is gone before the client's first read.
import { expect } from 'chai';
import { type Browser as PwBrowser, chromium, type Page as PwPage } from 'playwright-core';
import type { Page } from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import { type CdpChromium, launchCdpChromium } from '../harness/cdp-chromium';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { until } from '../harness/until';

/** The fixture's background: the corner where our bar would sit must be all this colour. */
const BG = [250, 250, 210] as const;
const PAGE =
  `<style>html,body{margin:0;background:rgb(${BG.join(',')})}</style>` +
  '<h1>Invisible UI</h1><p>Only the page is here.</p><label>Name <input id="n"></label> <button>Save</button>';
/** Where the bar sits (left 12 px, bottom 12 px, about 30 px high): the viewport's bottom-left corner, this big. */
const CORNER = { width: 480, height: 80 };
const OUR_WORDS = /Stop the agent|Agent is controlling/;
/** The tab group the person sees the client's tab in. */
const GROUP = 'Agent: invisible (CDP client)';

interface Reading {
  /** DOM.getDocument({depth: -1, pierce: true}): each node's name and attribute names, in tree order. */
  dom: string[];
  /** DOM.querySelectorAll('*') from the document. */
  queried: number;
  /** Accessibility.getFullAXTree: role and name of every node. */
  ax: string[];
  /** Accessibility.queryAXTree by the names of our Stop button ("Stop the agent", its text "Stop"): how many nodes each finds. */
  named: number[];
  /** DOMSnapshot.captureSnapshot: its string table (frame ids left out), and how many nodes its document has. */
  snapshotStrings: string[];
  snapshotNodes: number;
  /** Runtime.evaluate: what a page script sees. */
  page: { count: number; text: string; popovers: number; active: string | null; htmlAttrs: string[] };
  /** The bottom-left corner as a PNG (base64). */
  corner: string;
}

interface DomNode {
  nodeName: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

function flatten(n: DomNode, out: string[] = []): string[] {
  const attrs = (n.attributes ?? []).filter((_, i) => i % 2 === 0);
  out.push(attrs.length ? `${n.nodeName}[${attrs.join(',')}]` : n.nodeName);
  for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? []), ...(n.contentDocument ? [n.contentDocument] : [])]) flatten(c, out);
  return out;
}

const PAGE_PROBE = `(() => ({
  count: document.querySelectorAll('*').length,
  text: document.body.innerText,
  popovers: document.querySelectorAll(':popover-open').length,
  active: document.activeElement ? document.activeElement.tagName : null,
  htmlAttrs: [...document.documentElement.attributes].map((a) => a.name),
}))()`;

/** Everything the client reads, through its own CDP session on the page. */
async function read(page: PwPage): Promise<Reading> {
  const s = await page.context().newCDPSession(page);
  try {
    const doc = await s.send('DOM.getDocument', { depth: -1, pierce: true });
    const queried = (await s.send('DOM.querySelectorAll', { nodeId: doc.root.nodeId, selector: '*' })).nodeIds.length;
    const ax = (await s.send('Accessibility.getFullAXTree', {})).nodes.map(
      (n) => `${String(n.role?.value ?? '')}:${String(n.name?.value ?? '')}`,
    );
    // What a client looking for a Stop button by its accessible name finds (chrome-devtools-mcp and Playwright's getByRole do so).
    const named = await Promise.all(
      ['Stop the agent', 'Stop'].map(
        async (accessibleName) => (await s.send('Accessibility.queryAXTree', { nodeId: doc.root.nodeId, accessibleName })).nodes.length,
      ),
    );
    const snap = await s.send('DOMSnapshot.captureSnapshot', { computedStyles: [] });
    const evaluated = await s.send('Runtime.evaluate', { expression: PAGE_PROBE, returnByValue: true });
    const size = (await s.send('Runtime.evaluate', { expression: '[innerWidth, innerHeight]', returnByValue: true })).result
      .value as number[];
    const corner = await page.screenshot({ clip: { x: 0, y: (size[1] ?? 0) - CORNER.height, ...CORNER } });
    return {
      dom: flatten(doc.root as DomNode),
      queried,
      ax,
      named,
      // Frame ids (32 hex digits) are Chrome's own, different in each browser.
      snapshotStrings: snap.strings.filter((x) => !/^[0-9A-F]{32}$/.test(x)).sort(),
      snapshotNodes: snap.documents[0]?.nodes.nodeName?.length ?? -1,
      page: evaluated.result.value as Reading['page'],
      corner: corner.toString('base64'),
    };
  } finally {
    await s.detach().catch(() => undefined);
  }
}

/** Pixels of a PNG that are not the page background (decoded by a browser page). */
function offBackground(decoder: PwPage, png: string): Promise<number> {
  return decoder.evaluate(
    async ({ png, bg }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let off = 0;
      for (let i = 0; i < d.length; i += 4) if (bg.some((v, k) => Math.abs((d[i + k] ?? 0) - v) > 2)) off++;
      return off;
    },
    { png, bg: [...BG] },
  );
}

describe("e2e: our UI is invisible to a CDP client (same page, Chromium's own endpoint and ours)", function () {
  this.timeout(120_000);
  let h: Harness;
  let plain: CdpChromium | undefined;
  let plainBrowser: PwBrowser | undefined;
  let panel: Page;
  let client: PwBrowser | undefined;
  let held: PwPage;
  let url: string;
  let tabId = -1;
  let sessionId = '';
  let ours: Reading;
  let theirs: Reading;

  const sessions = () =>
    h.bridge.status()['sessions'] as { session_id: string; client: { name: string } | null; tabs: { tab_id: number }[] }[];

  useHarness((started) => (h = started), {
    prepare: async (started) => {
      url = started.fixtures.html('/invisible-ui', PAGE, 'Invisible UI');
      panel = await openPanel(started.launched.browser);
    },
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await plainBrowser?.close().catch(() => undefined);
    await plain?.close();
  });

  it("a tab that showed a classic agent's bar, handed to a CDP client: the same DOM, accessibility tree, DOMSnapshot and evaluate results as on Chromium", async () => {
    // The reference: the same page read through Chromium's own endpoint.
    plain = await launchCdpChromium();
    plainBrowser = await chromium.connectOverCDP(plain.httpUrl);
    const reference = await plainBrowser.contexts()[0]!.newPage();
    await reference.goto(url);
    theirs = await read(reference);

    // The person's tab on the same page, held by a classic agent first: the bar shows there (the
    // control: it is live in this run). The agent lets go and a Playwright client is handed the tab
    // at connect, with no wait for the bar to go.
    const person = await h.openPage(url);
    const agent = await h.connectAgent();
    const st = await agent.call('get_state', {});
    expect(st.status, JSON.stringify(st.error_info)).to.equal('success');
    await person.waitForSelector('[data-browser-agent-ui="overlay"]', { timeout: 10_000 });
    await agent.close();
    await until('the classic agent let go of the tab', 5000, () => !sessions().some((s) => s.tabs.some((t) => t.tab_id === st.tab_id)));
    const { url: base } = mintCdpClient(h.configDir, { name: 'invisible', maxTabs: 2 });
    client = await chromium.connectOverCDP(base(h.bridge.port));
    const page = client
      .contexts()[0]!
      .pages()
      .find((p) => p.url() === url);
    if (!page)
      throw new Error(
        `the handed-over tab is not among ${client
          .contexts()[0]!
          .pages()
          .map((p) => p.url())
          .join(', ')}`,
      );
    held = page;
    // Before anything else (the bar was on this very tab a moment ago).
    const first = (await held.evaluate(PAGE_PROBE)) as Reading['page'];
    const session = await until('the client holds the tab', 10_000, () => sessions().find((s) => s.client?.name === 'cdp:invisible'));
    sessionId = session.session_id;
    tabId = session.tabs[0]!.tab_id;
    // The tab's lease was applied (its group is made in the same pass that showed the bar before),
    // and a new document loaded (which showed the bar again before): then the client reads.
    await until("the client's tab group", 10_000, async () => (await groupTitle(tabId)) === GROUP);
    await held.goto(url);
    ours = await read(held);

    expect(ours.dom, 'DOM.getDocument with pierce').to.deep.equal(theirs.dom);
    expect(ours.queried, 'DOM.querySelectorAll *').to.equal(theirs.queried);
    expect(
      ours.ax.filter((n) => OUR_WORDS.test(n)),
      'our words in the accessibility tree',
    ).to.deep.equal([]);
    expect(ours.ax, 'Accessibility.getFullAXTree roles and names').to.deep.equal(theirs.ax);
    expect(ours.named, 'Accessibility.queryAXTree by the names of our Stop button').to.deep.equal([0, 0]);
    expect(theirs.named).to.deep.equal([0, 0]);
    expect(
      ours.snapshotStrings.filter((s) => OUR_WORDS.test(s)),
      'our words in DOMSnapshot',
    ).to.deep.equal([]);
    expect(ours.snapshotNodes, 'DOMSnapshot nodes').to.equal(theirs.snapshotNodes);
    expect(ours.snapshotStrings, 'DOMSnapshot strings').to.deep.equal(theirs.snapshotStrings);
    expect(ours.page, 'what a page script sees').to.deep.equal(theirs.page);
    expect(ours.page.text).to.not.match(OUR_WORDS);
    expect(first, "the client's first read, right after the classic agent's bar").to.deep.equal(theirs.page);
  });

  it('the corner where the bar would sit shows the page background in its screenshot, as on Chromium', async () => {
    const decoder = (await plainBrowser!.contexts()[0]!.pages())[0]!;
    expect(await offBackground(decoder, theirs.corner), "pixels off the background on Chromium's own endpoint").to.equal(0);
    expect(await offBackground(decoder, ours.corner), 'pixels off the background through our endpoint').to.equal(0);
    // Still nothing of ours after every read above (a late overlay message would have landed by now).
    expect((await held.evaluate(PAGE_PROBE)) as Reading['page']).to.deep.equal(theirs.page);
  });

  it("the person still sees the tab in the agent's group and ends the client with Disconnect in the side panel", async () => {
    expect(await groupTitle(tabId)).to.equal(GROUP);
    const stop = `#agent-list > li[data-session-id="${sessionId}"] .agent button`;
    await panel.waitForSelector(stop, { visible: true, timeout: 10_000 });
    const closed = new Promise<void>((r) => held.once('close', () => r()));
    await panel.click(stop);
    await closed;
    await until('the tab is released', 5000, () => !sessions().some((s) => s.tabs.some((t) => t.tab_id === tabId)));
  });

  /** The title of the tab's group as the person sees it in the tab strip, or null. */
  function groupTitle(id: number): Promise<string | null> {
    return panel.evaluate(async (t) => {
      const tab = await chrome.tabs.get(t);
      return tab.groupId === -1 ? null : ((await chrome.tabGroups.get(tab.groupId)).title ?? null);
    }, id);
  }
});
