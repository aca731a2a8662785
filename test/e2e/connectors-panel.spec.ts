// The side panel's "Connect a backend", as a person uses it, in real Chromium with the built
// extension: the form starts empty and Add stays off until a usable address is typed; a backend
// where nothing listens reads "Not reachable (retrying in N s)" and is never called connected, in
// its own row or in the agent list; one that answers and refuses reads "Refused: why"; a real
// backend on that address turns it to Connected. At 360 px wide, with zero serious accessibility
// violations. PNGs go to test-artifacts/connectors-panel/.
import http from 'node:http';
import net from 'node:net';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { describeViolations, seriousAxeViolations } from '../harness/axe';
import { freePort } from '../harness/free-port';
import { type Harness, startHarness } from '../harness/harness';
import { artifactShot, openPanel } from '../harness/panel';
import { Seed001Backend } from '../seeds/backends';

const shot = (page: Page, name: string) => artifactShot('connectors-panel', page, name);

/** What the person reads about the backend at url: its row in "Connect a backend", and the badge and
 * note of its session in the agent list (empty while the session is not listed yet). */
const readBackend = (panel: Page, url: string) =>
  panel.evaluate((u: string) => {
    const row = [...document.querySelectorAll<HTMLElement>('#backend-list li')].find((li) => li.querySelector('.url')?.textContent === u);
    const agent = [...document.querySelectorAll<HTMLElement>('#agent-list > li')].find((li) => li.innerText.includes(u));
    return {
      state: row?.dataset['state'] ?? '',
      text: row?.innerText ?? '',
      agentBadge: agent?.querySelector('.badge')?.textContent ?? '',
      agentText: agent?.innerText ?? '',
    };
  }, url);

async function typeUrl(panel: Page, url: string): Promise<void> {
  await panel.$eval('#backend-url', (e) => ((e as HTMLInputElement).value = ''));
  await panel.type('#backend-url', url);
}

const addDisabled = (panel: Page) => panel.$eval('#backend-connect', (b) => (b as HTMLButtonElement).disabled);

describe('side panel: Connect a backend (real Chromium)', function () {
  this.timeout(180_000);
  let h: Harness;
  let panel: Page;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    h = await startHarness();
    // A page for the backend to read (the active tab of the normal window; the panel is a popup).
    const page = await h.openPage(h.fixtures.html('/page', '<button>Order</button> <a href="#x">Help</a>', 'A page'));
    for (const p of await h.launched.browser.pages()) if (p !== page && p.url() === 'about:blank') await p.close();
    panel = await openPanel(h.launched.browser, { width: 360, height: 900 });
    await page.bringToFront();
    await panel.waitForFunction(() => (document.getElementById('connection') as HTMLElement).dataset['state'] === 'connected', {
      timeout: 30_000,
    });
  });
  after(async () => {
    for (const c of closers) await c().catch(() => undefined);
    await h?.close();
  });

  it('starts empty with Add off; a wrong address says why next to the field; a ws:// address turns Add on', async () => {
    expect(await panel.$eval('#backend-url', (e) => (e as HTMLInputElement).value)).to.equal('');
    expect(await addDisabled(panel), 'nothing typed: Add is off').to.equal(true);
    const text = await panel.$eval('#backends', (e) => (e as HTMLElement).innerText);
    expect(text).to.not.match(/seed|\b00[01]\b/i);
    expect(text).to.contain('Agent server: snapshot and refs');
    await typeUrl(panel, 'http://localhost:8080');
    expect(await addDisabled(panel)).to.equal(true);
    expect(await panel.$eval('#backend-url-error', (e) => e.textContent)).to.contain('ws://');
    expect(await panel.$eval('#backend-url', (e) => e.getAttribute('aria-invalid'))).to.equal('true');
    await typeUrl(panel, 'ws://127.0.0.1:9');
    expect(await addDisabled(panel)).to.equal(false);
    expect(await panel.$eval('#backend-url-error', (e) => e.textContent)).to.equal('');
  });

  it('nothing listens: "Not reachable (retrying in N s)", never Connected; a real backend there: Connected', async () => {
    const port = await freePort();
    const url = `ws://127.0.0.1:${port}`;
    await typeUrl(panel, url);
    await panel.keyboard.press('Enter'); // Enter in the field adds
    await panel.waitForFunction(() => document.getElementById('backend-result')?.textContent?.startsWith('Added'), { timeout: 15_000 });
    expect(await panel.$eval('#backend-url', (e) => (e as HTMLInputElement).value), 'the field is emptied for the next one').to.equal('');
    // Sample what the person reads for 4 s (a few failed dials): never connected, anywhere.
    const seen: Awaited<ReturnType<typeof readBackend>>[] = [];
    const end = Date.now() + 4000;
    while (Date.now() < end) {
      seen.push(await readBackend(panel, url));
      await new Promise((r) => setTimeout(r, 150));
    }
    for (const s of seen) {
      expect(s.state, JSON.stringify(s)).to.not.equal('connected');
      expect(s.text, JSON.stringify(s)).to.not.contain('Connected');
      expect(s.agentBadge.toLowerCase(), JSON.stringify(s)).to.not.equal('connected');
    }
    const last = seen.at(-1)!;
    expect(last.state).to.equal('unreachable');
    expect(last.text).to.match(/Not reachable \((retrying in \d+ s|trying again now)\)/);
    expect(last.text).to.contain(`No backend answers at ${url}`);
    expect(last.agentBadge.toLowerCase(), 'the agent list shows the backend, not the session').to.equal('not reachable');
    expect(last.agentText).to.contain(`Backend ${url}`).and.not.match(/seed/i);
    await shot(panel, '01-not-reachable');
    expect(describeViolations(await seriousAxeViolations(panel, '#backends'))).to.equal('');

    const backend = await new Seed001Backend().start(port);
    closers.push(() => backend.close());
    await backend.waitConnected();
    await panel.waitForFunction(
      (u: string) =>
        [...document.querySelectorAll<HTMLElement>('#backend-list li')].some(
          (li) => li.querySelector('.url')?.textContent === u && li.dataset['state'] === 'connected',
        ),
      { timeout: 20_000 },
      url,
    );
    const now = await readBackend(panel, url);
    expect(now.text).to.contain('Connected').and.not.contain('No backend answers');
    await panel.waitForFunction(
      (u: string) =>
        [...document.querySelectorAll<HTMLElement>('#agent-list > li')].some(
          (li) => li.innerText.includes(u) && li.querySelector('.badge')?.textContent === 'connected',
        ),
      { timeout: 10_000 },
      url,
    );
    // And the backend really drives the browser.
    const snap = await backend.send({ type: 'snapshot' });
    expect(snap['success'], JSON.stringify(snap)).to.equal(true);
    await shot(panel, '02-connected');
  });

  it('a server that answers and refuses reads "Refused: HTTP 403 Forbidden"; Remove forgets it', async () => {
    const srv = http.createServer((_req, res) => res.end());
    srv.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise<void>((r) => srv.close(() => r())));
    const url = `ws://127.0.0.1:${(srv.address() as net.AddressInfo).port}/agent`;
    await panel.select('#backend-dialect', '000');
    expect(await panel.$eval('#backend-kind-hint', (e) => e.textContent)).to.contain('numbered elements');
    await typeUrl(panel, url);
    await panel.click('#backend-connect');
    await panel.waitForFunction(
      (u: string) =>
        [...document.querySelectorAll<HTMLElement>('#backend-list li')].some(
          (li) => li.querySelector('.url')?.textContent === u && li.dataset['state'] === 'refused',
        ),
      { timeout: 20_000 },
      url,
    );
    expect((await readBackend(panel, url)).text).to.contain('Refused: HTTP 403 Forbidden');
    await shot(panel, '03-refused');
    // Fits 360 px: nothing in the section scrolls sideways.
    const overflow = await panel.$eval('#backends', (e) => e.scrollWidth - e.clientWidth);
    expect(overflow, 'horizontal overflow at 360 px').to.be.at.most(0);
    // The connector's row in the agent list too (its name is the backend's address, one long word).
    const rowOverflow = await panel.evaluate((u: string) => {
      const li = [...document.querySelectorAll<HTMLElement>('#agent-list > li')].find((x) => x.innerText.includes(u));
      const card = document.getElementById('agents')!.getBoundingClientRect();
      return li ? Math.max(...[...li.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)) - card.right : NaN;
    }, url);
    expect(rowOverflow, 'the agent row sticks out of its card').to.be.at.most(0);
    await panel.$eval(`#backend-list li:last-child button`, (b) => (b as HTMLButtonElement).click());
    await panel.waitForFunction(
      (u: string) => ![...document.querySelectorAll('#backend-list li .url')].some((e) => e.textContent === u),
      { timeout: 15_000 },
      url,
    );
    expect(await panel.$eval('#backend-result', (e) => e.textContent)).to.contain('Removed');
  });
});
