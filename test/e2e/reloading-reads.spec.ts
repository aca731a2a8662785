// Reads on a page that keeps reloading, in real Chromium with the built extension: get_state,
// extract_content, get, is and get_dropdown_options answer from the newest document, or
// NAVIGATED_AWAY when no document stays long enough, never a channel error.
import { expect } from 'chai';

import type { ActionResultMessage } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { open, type Opened, quietSettle } from './actions.helpers';

describe('e2e: reads on a page that reloads every 150 ms', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: (started) => quietSettle(started) });

  /** Calls each read `times` times on o's tab; returns the tally of answers and the ones that were neither success nor NAVIGATED_AWAY. */
  async function readLoop(o: Opened, reads: [string, () => Promise<ActionResultMessage>][], times = 30) {
    const tally: Record<string, number> = {};
    const bad: string[] = [];
    for (const [name, call] of reads) {
      for (let i = 0; i < times; i++) {
        const r = await call();
        const key = `${name}:${r.status === 'success' ? 'success' : r.error_info?.error_code}`;
        tally[key] = (tally[key] ?? 0) + 1;
        if (r.status === 'success') continue;
        if (r.error_info?.error_code !== 'NAVIGATED_AWAY') bad.push(`${key}: ${r.error_info?.message}`);
        else expect(r.error_info.message).to.match(/keeps reloading|navigated/);
      }
    }
    return { tally, bad };
  }

  /**
   * Cleanup only (not the behaviour under test): a tab that reloads every few ms is closed by the
   * product's close_tab, else by puppeteer, and neither may hang the suite. On a loaded machine
   * puppeteer's page.close() sometimes never resolves there, and close_tab may wait behind a read.
   */
  async function closeTab(o: Opened): Promise<void> {
    const closed = await o.agent.call('close_tab', {}, { tabId: o.tabId, timeoutMs: 5000 }).catch(() => null);
    if (closed?.status === 'success') return;
    await Promise.race([o.page.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
  }

  async function reloadingPage(): Promise<Opened> {
    // Loads quietly once (open takes a first state), then reloads itself every 150 ms.
    const o = await open(
      h,
      `<p id="p">tick</p><select id="s"><option>one</option><option>two</option></select>
       <script>if (sessionStorage.getItem('loop')) setTimeout(() => location.reload(), 150);</script>`,
    );
    await o.page.evaluate(() => {
      sessionStorage.setItem('loop', '1');
      location.reload();
    });
    return o;
  }

  it('30 get_state and 30 extract_content each answer success or NAVIGATED_AWAY', async function () {
    this.timeout(240_000);
    const o = await reloadingPage();
    const { tally, bad } = await readLoop(o, [
      ['get_state', () => o.call('get_state', {})],
      ['extract_content', () => o.call('extract_content', {})],
      // No tab named: the tab in front, learned from the first try.
      ['get_state (no tab_id)', () => o.agent.call('get_state', {})],
    ]);
    console.log('      reloading page:', JSON.stringify(tally));
    expect(bad, JSON.stringify(tally)).to.deep.equal([]);
    await closeTab(o);
  });

  it('30 each of get, is and get_dropdown_options answer from the newest document (a reload is far shorter than the timeout)', async function () {
    this.timeout(240_000);
    const o = await reloadingPage();
    const { tally, bad } = await readLoop(o, [
      ['get', () => o.call('get', { selector: '#p', what: 'text' })],
      ['is', () => o.call('is', { selector: '#p', what: 'visible' })],
      ['get_dropdown_options', () => o.call('get_dropdown_options', { selector: '#s' })],
    ]);
    console.log('      reloading page:', JSON.stringify(tally));
    expect(bad, JSON.stringify(tally)).to.deep.equal([]);
    // A reload every 150 ms leaves a document to read long before the action's 15 s run out.
    expect(tally).to.deep.equal({ 'get:success': 30, 'is:success': 30, 'get_dropdown_options:success': 30 });
    await closeTab(o);
  });

  it('10 screenshot and 10 get_state with a screenshot answer success or NAVIGATED_AWAY', async function () {
    this.timeout(240_000);
    const o = await reloadingPage();
    const { tally, bad } = await readLoop(
      o,
      [
        ['screenshot', () => o.call('screenshot', {})],
        ['get_state+screenshot', () => o.call('get_state', { include_screenshot: true })],
      ],
      10,
    ); // Chrome allows two captures a second
    console.log('      reloading page:', JSON.stringify(tally));
    expect(bad, JSON.stringify(tally)).to.deep.equal([]);
    await closeTab(o);
  });

  it('a page that never stays long enough to be read: NAVIGATED_AWAY saying it keeps reloading, within the timeout', async function () {
    this.timeout(60_000);
    const o = await open(h, `<p>tick</p><script>if (sessionStorage.getItem('spin')) location.reload();</script>`);
    await o.page.evaluate(() => {
      sessionStorage.setItem('spin', '1');
      location.reload();
    });
    for (const action of ['get_state', 'extract_content'] as const) {
      const t = Date.now();
      const r = await o.agent.call(action, {}, { tabId: o.tabId, timeoutMs: 3000 });
      const took = Date.now() - t;
      expect(took, `${action} answered after ${took} ms`).to.be.below(3000);
      console.log(
        `      ${action} on a page that never loads: ${r.status === 'success' ? 'success' : r.error_info?.error_code} after ${took} ms`,
      );
      if (r.status === 'success') continue; // it caught a document between two reloads
      expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NAVIGATED_AWAY');
      expect(r.error_info?.message).to.match(/keeps reloading or navigating: it went away \d+ times? in \d+ ms/);
    }
    await closeTab(o); // its sessionStorage (the loop's switch) goes with the tab
  });
});
