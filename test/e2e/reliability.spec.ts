// Reliability in the real setup (Chromium + built extension + bridge): nothing false (wait_for when the
// page goes away), nothing leaked (one privacy filter over every reading action), and settling that
// answers when the page has settled.
import { expect } from 'chai';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ExtensionStatusMessage } from '../../schemas/generated/protocol';
import { type Harness, startHarness } from '../harness/harness';
import { open } from './actions.helpers';

/** Stops the extension's service worker as Chrome does when it idles it out (CDP Target.closeTarget). */
export async function stopWorker(h: Harness): Promise<void> {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
    timeout: 10_000,
  });
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  await w.close();
}

export function nextStatus(agent: AgentClient, connected: boolean, timeoutMs = 45_000): Promise<ExtensionStatusMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no extension_status connected=${connected} within ${timeoutMs} ms`)), timeoutMs);
    const on = (m: ExtensionStatusMessage) => {
      if (m.connected !== connected) return;
      clearTimeout(timer);
      agent.off('extension_status', on);
      resolve(m);
    };
    agent.on('extension_status', on);
  });
}

describe('e2e reliability: nothing false, nothing leaked', function () {
  let h: Harness;
  before(async function () {
    this.timeout(60_000);
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  describe('wait_for never reports success for a condition it did not see', () => {
    it('is NAVIGATED_AWAY when the page navigates before the condition is met', async () => {
      const other = h.fixtures.html('/rel-elsewhere', '<p>Another page</p>', 'Elsewhere');
      const o = await open(h, '<p>waiting</p>');
      const pending = o.call('wait_for', { text: 'never appears', timeout_ms: 5000 });
      await new Promise((r) => setTimeout(r, 400));
      await o.page.evaluate((url) => void (location.href = url), other);
      const r = await pending;
      expect(r.status, JSON.stringify(r.outcome_details)).to.equal('error');
      expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NAVIGATED_AWAY');
      expect(r.error_info?.message).to.match(/condition was not met/);
      expect(r.new_simplified_state?.url).to.equal(other);
      await o.page.close();
    });

    it('is TAB_NOT_FOUND when the tab is closed before the condition is met', async () => {
      const o = await open(h, '<p>waiting</p>');
      const pending = o.call('wait_for', { selector: '#never', timeout_ms: 5000 });
      await new Promise((r) => setTimeout(r, 400));
      await o.page.close();
      const r = await pending;
      expect(r.status, JSON.stringify(r.outcome_details)).to.equal('error');
      expect(r.error_info?.error_code).to.equal('TAB_NOT_FOUND');
    });

    it('still succeeds when the condition is met before anything goes away', async () => {
      const o = await open(
        h,
        `<p>waiting</p><script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>ready now</p>'), 200);</script>`,
      );
      const r = await o.ok('wait_for', { text: 'ready now', timeout_ms: 5000 });
      expect(r['waited_ms']).to.be.a('number');
      await o.page.close();
    });
  });

  describe('service worker restarts', () => {
    it('a stopped idle worker is woken by a navigation and is back at the bridge within seconds, not at the 30 s alarm', async function () {
      this.timeout(60_000);
      const o = await open(h, '<p>idle</p>');
      const down = nextStatus(o.agent, false);
      await stopWorker(h);
      await down;
      const up = nextStatus(o.agent, true);
      const t = Date.now();
      await o.page.goto(h.fixtures.html('/rel-wake', '<p>woken</p>', 'Wake'), { waitUntil: 'load' });
      await up;
      const ms = Date.now() - t;
      expect(ms, `back after ${ms} ms`).to.be.below(10_000);
      const r = await o.call('get_state', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.new_simplified_state?.title).to.equal('Wake');
      await o.page.close();
    });

    it('a worker stopped mid-action answers EXTENSION_DISCONNECTED (never success, never silence) and the next call works', async function () {
      this.timeout(60_000);
      const o = await open(h, '<p>busy</p>');
      const pending = o.call('wait_for', { text: 'never there', timeout_ms: 8000 });
      await new Promise((r) => setTimeout(r, 500));
      const up = nextStatus(o.agent, true);
      await stopWorker(h);
      const r = await pending;
      expect(r.status).to.equal('error');
      expect(r.error_info?.error_code).to.equal('EXTENSION_DISCONNECTED');
      await o.page.bringToFront();
      await o.page.reload({ waitUntil: 'load' });
      await up;
      const again = await o.call('get_state', {});
      expect(again.status, JSON.stringify(again.error_info)).to.equal('success');
      await o.page.close();
    });
  });

  describe('one privacy filter over every reading action', () => {
    const SECRETS_PAGE = `<form id="f">
      <label>Password <input id="pw" type="password" value="hunter2-SECRET"></label>
      <label>Card number <input id="card" name="cardnumber" value="4111 1111 1111 1111"></label>
      <input id="ccac" autocomplete="cc-number" value="5500005555555559" aria-label="Pay with">
      <label>CVC <input id="cvc" name="cvc" value="7z3q"></label>
      <label>Verification code <input id="otp" inputmode="numeric" value="492817"></label>
      <input id="pin" name="pin" aria-label="Your PIN" value="86q42">
      <input id="plain" name="note" aria-label="Note" value="4012888888881881">
      <textarea id="ta" aria-label="Message">my card is 4242-4242-4242-4242 thanks</textarea>
      <input id="ok" name="city" aria-label="City" value="Berlin 10115">
    </form>
    <p id="txt">Your card 4000 0566 5566 5556 is on file.</p>`;
    const LEAKS = [
      'hunter2-SECRET',
      '4111 1111 1111 1111',
      '4111111111111111',
      '5500005555555559',
      '7z3q',
      '492817',
      '86q42',
      '4012888888881881',
      '4242-4242-4242-4242',
      '4000 0566 5566 5556',
      'newpass-XYZ',
    ];
    const leaked = (x: unknown) => LEAKS.filter((l) => JSON.stringify(x).includes(l));

    it('get_state, get value/attribute/html/text, extract_content and fill messages never show a secret', async () => {
      const o = await open(h, SECRETS_PAGE);
      const outputs: unknown[] = [o.state];
      const st = await o.call('get_state', {});
      outputs.push(st);
      const ids = ['pw', 'card', 'ccac', 'cvc', 'otp', 'pin', 'plain', 'ta'];
      for (const id of ids) {
        const eid = await o.id(id);
        const v = await o.call('get', { element_id: eid, what: 'value' });
        outputs.push(v);
        if (v.status === 'success') expect(String((v.outcome_details?.result as { value: unknown }).value), id).to.match(/\[redacted:/);
        else expect(v.error_info?.error_code, `${id}: ${JSON.stringify(v.error_info)}`).to.equal('NOT_PERMITTED');
        outputs.push(await o.call('get', { element_id: eid, what: 'attribute', attribute: 'value' }));
      }
      outputs.push(await o.call('get', { selector: '#f', what: 'html' }));
      outputs.push(await o.call('get', { selector: 'body', what: 'html' }));
      outputs.push(await o.call('get', { selector: '#txt', what: 'text' }));
      outputs.push(await o.call('get', { selector: 'body', what: 'text' }));
      outputs.push(await o.call('extract_content', {}));
      const filled = await o.call('fill', { element_id: await o.id('pw'), value: 'newpass-XYZ' });
      expect(filled.status).to.equal('success');
      outputs.push(filled);
      outputs.push(await o.call('fill', { element_id: await o.id('plain'), value: '4111111111111111' }));
      outputs.push(await o.call('get_state', {}));
      expect(leaked(outputs)).to.deep.equal([]);
      // Not everything is hidden: an ordinary field still reads.
      const city = await o.call('get', { element_id: await o.id('ok'), what: 'value' });
      expect((city.outcome_details?.result as { value: string }).value).to.equal('Berlin 10115');
      const text = (await o.call('get', { selector: '#txt', what: 'text' })).outcome_details?.result as { value: string };
      expect(text.value).to.equal('Your card [redacted:payment_card] is on file.');
      await o.page.close();
    });
  });

  describe('screenshots draw card fields masked', () => {
    it('two different card numbers in the same field give the same picture; an ordinary field does not', async () => {
      const shot = async (card: string, city: string) => {
        const o = await open(
          h,
          `<label>Card number <input id="c" size="24" value="${card}"></label><br><label>City <input id="t" value="${city}"></label>`,
        );
        const r = await o.call('screenshot', {});
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        await o.page.close();
        return (r.outcome_details?.result as { data_base64: string }).data_base64;
      };
      const a = await shot('4111 1111 1111 1111', 'Berlin');
      const b = await shot('5500 0055 5555 5559', 'Berlin');
      const c = await shot('5500 0055 5555 5559', 'Munich');
      expect(a === b, 'card digits visible in the screenshot').to.equal(true);
      expect(b === c, 'the ordinary field should still be visible').to.equal(false);
    });

    it('a card field inside a cross-origin iframe is masked too', async () => {
      const shot = async (card: string) => {
        const inner = h.fixtures
          .html(
            `/card-frame-${card.replace(/\D/g, '')}`,
            `<label>Card number <input autocomplete="cc-number" size="24" value="${card}"></label>`,
          )
          .replace('127.0.0.1', 'localhost');
        const o = await open(h, `<p>Pay</p><iframe src="${inner}" width="400" height="80"></iframe>`);
        await o.page.waitForFunction(
          () => document.querySelector('iframe')?.contentWindow !== null && performance.getEntriesByType('resource').length > 0,
        );
        await new Promise((r) => setTimeout(r, 300)); // the frame painted
        const r = await o.call('screenshot', {});
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        await o.page.close();
        return (r.outcome_details?.result as { data_base64: string }).data_base64;
      };
      expect((await shot('4111 1111 1111 1111')) === (await shot('5500 0055 5555 5559')), 'card digits visible inside the iframe').to.equal(
        true,
      );
    });

    it('the agent\'s own "controlling this tab" label is not in the picture the model gets', async () => {
      const o = await open(h, '<p>Plain white page</p>');
      await o.page.waitForSelector('[data-browser-agent-ui="overlay"]', { timeout: 10_000 });
      const r = await o.call('screenshot', {});
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      const png = (r.outcome_details?.result as { data_base64: string }).data_base64;
      // The label sits 12 px from the bottom-left corner on a dark blue bar: read that pixel back.
      const rgb = await o.page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const ratio = img.width / window.innerWidth;
        return [...g.getImageData(Math.round(30 * ratio), img.height - Math.round(24 * ratio), 1, 1).data.slice(0, 3)];
      }, png);
      expect(rgb, 'the overlay bar was captured').to.deep.equal([255, 255, 255]);
      // And it is back for the person right after.
      expect(await o.page.$eval('[data-browser-agent-ui="overlay"]', (e) => getComputedStyle(e).visibility)).to.equal('visible');
      await o.page.close();
    });
  });

  describe('no-change actions answer when the page has settled', () => {
    const PAGE = `<button id="noop" onclick="window.clicked = (window.clicked || 0) + 1">Count silently</button>
      <input type="checkbox" id="cb" aria-label="Agree">
      <button id="toggle" onclick="document.getElementById('cb').checked = !document.getElementById('cb').checked">Toggle by property</button>
      <input id="name" aria-label="Name">`;

    it('a click whose effect is only a variable or a checked property answers in well under the 15 s watch', async function () {
      this.timeout(60_000);
      const o = await open(h, PAGE);
      for (const id of ['noop', 'toggle', 'cb']) {
        const t = Date.now();
        const r = await o.call('click', { element_id: await o.id(id) });
        const ms = Date.now() - t;
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        expect(ms, `${id} answered after ${ms} ms`).to.be.below(5000);
        expect(r.outcome_details?.no_change_notice).to.equal(undefined);
      }
      expect(await o.page.evaluate(() => (document.getElementById('cb') as HTMLInputElement).checked)).to.equal(false);
      await o.page.close();
    });

    it("gives seed 002's 15-second notice with the next result when the page really changed nothing for 15 s", async function () {
      this.timeout(60_000);
      const o = await open(h, PAGE);
      const t = Date.now();
      const r = await o.call('click', { element_id: await o.id('noop') });
      expect(Date.now() - t).to.be.below(5000);
      expect(r.outcome_details?.dom_changed).to.equal(false);
      await new Promise((res) => setTimeout(res, 15_500));
      const st = await o.call('get_state', {});
      expect(st.outcome_details?.no_change_notice).to.equal('Action executed but no DOM change detected within 15 seconds.');
      // Taken once.
      expect((await o.call('get_state', {})).outcome_details?.no_change_notice).to.equal(undefined);
      await o.page.close();
    });
  });

  describe("the agent's own page UI is neither a target nor a cover", () => {
    it('its bar is not targetable by selector or role+name, and a real button under the bar is clickable', async () => {
      const o = await open(
        h,
        `<button id="real" style="position:fixed;left:0;bottom:0;width:60vw;height:80px" onclick="window.hit = 'real'">Pay now</button>`,
      );
      await o.page.waitForSelector('[data-browser-agent-ui="overlay"]', { timeout: 10_000 });
      const byRole = await o.call('click', { role: 'button', name: 'Stop', timeout_ms: 500 });
      expect(byRole.error_info?.error_code).to.equal('TARGET_ELEMENT_NOT_FOUND');
      expect((await o.call('get', { selector: 'button', what: 'count' })).outcome_details?.result).to.deep.equal({ value: 1 });
      const s = (await o.call('get_state', {})).new_simplified_state;
      expect(s?.actionable_elements.map((e) => e.name)).to.deep.equal(['Pay now']);
      expect(s?.actionable_elements[0]?.is_top_element, 'our bar does not cover it').to.equal(true);
      const real = await o.call('click', { element_id: await o.id('real') });
      expect(real.status, JSON.stringify(real.error_info)).to.equal('success');
      expect(await o.page.evaluate(() => (window as unknown as { hit?: string }).hit)).to.equal('real');
      await o.page.close();
    });
  });
});
