// State deltas in real Chromium: get_state since -> state_delta; the delta applied
// to the base state equals a fresh full state taken right after; after a small change it moves at
// most 10% of the full state's bytes; a navigation, an unknown id and another tab's id answer a full
// state with delta_unavailable, never an error. The TS client's getState() does all of it for a caller.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import { formPage } from '../../bench/pages';
import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionResultMessage, GetStateParams, SimplifiedState, StateDelta } from '../../schemas/generated/protocol';
import { renderBrowserUse } from '../../schemas/lib/render';
import { applyStateDelta, jsonBytes } from '../../schemas/lib/state-delta';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';

let h: Harness;
let agent: AgentClient;
let page: Page;
let tabId: number;

/** A shop page of realistic size: navigation, 40 products, a cart form, a to-do list, a footer. */
function shopPage(): string {
  const nav = Array.from({ length: 15 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(' ');
  const products = Array.from(
    { length: 40 },
    (_, i) =>
      `<li class="p"><h3>Product ${i}</h3><p>Fine product number ${i}, hand made, ships in ${1 + (i % 5)} days.</p><span>Price: ${10 + i}.99 EUR</span> <a href="/p/${i}">Details</a> <button>Add to cart ${i}</button></li>`,
  ).join('');
  return `<header><nav>${nav}</nav><input aria-label="Search products" id="search"></header>
<main><h1>Spring sale</h1><p>Everything must go.</p>
<form id="cart"><label>Coupon <input id="coupon" name="coupon"></label> <label><input type="checkbox" id="gift"> Gift wrap</label> <button type="button">Apply</button></form>
<ul id="todo"><li>Buy milk <button>Done</button></li><li>Call Bob <button>Done</button></li></ul>
<ul id="products">${products}</ul></main>
<footer>${Array.from({ length: 10 }, (_, i) => `<a href="/f/${i}">Footer link ${i}</a>`).join(' ')}</footer>`;
}

async function call(params: GetStateParams): Promise<ActionResultMessage> {
  const r = await agent.call('get_state', params, { tabId });
  expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
  return r;
}

async function full(params: GetStateParams = {}): Promise<SimplifiedState> {
  const r = await call(params);
  const s = r.new_simplified_state as SimplifiedState;
  expect(s.state_id, 'every state has a state_id').to.be.a('string');
  return s;
}

/** The fields a fresh state legitimately differs in from the same page a moment later. */
// (is_new marks elements new since the previous snapshot, so it moves on with every snapshot.)
const comparable = (s: SimplifiedState) => {
  const { state_id: _a, timings_ms: _b, delta_unavailable: _c, ...rest } = s;
  return { ...rest, actionable_elements: rest.actionable_elements.map(({ is_new: _n, ...e }) => e) };
};

const ratios: string[] = [];

/** Base state, a change, a delta since the base and a fresh full state: the delta reproduces it, and its size. */
async function deltaAfter(
  label: string,
  params: GetStateParams,
  change: () => Promise<void>,
  maxRatio: number,
): Promise<{ delta: StateDelta; next: SimplifiedState }> {
  const base = await full(params);
  await change();
  const r = await call({ ...params, since: base.state_id as string });
  expect(r.new_simplified_state, `a delta, not a full state (${JSON.stringify(r.new_simplified_state?.delta_unavailable)})`).to.equal(
    undefined,
  );
  const delta = r.state_delta as StateDelta;
  expect(delta.base_state_id).to.equal(base.state_id);
  const applied = applyStateDelta(base, delta);
  const fresh = await full(params);
  // Nothing changed between the delta and the fresh state, so they describe the same page.
  expect(comparable(applied)).to.deep.equal(comparable(fresh));
  const ratio = jsonBytes(delta) / jsonBytes(fresh);
  if (process.env['BUX_DELTA_DEBUG']) console.log(label, JSON.stringify(delta));
  ratios.push(`| ${label} | ${jsonBytes(fresh)} | ${jsonBytes(delta)} | ${(ratio * 100).toFixed(1)}% |`);
  expect(ratio, `${label}: delta ${jsonBytes(delta)} bytes of ${jsonBytes(fresh)}`).to.be.at.most(maxRatio);
  return { delta, next: applied };
}

describe('e2e: state deltas (get_state since)', function () {
  this.timeout(90_000);
  before(async function () {
    h = await startHarness();
    agent = await h.connectAgent();
    page = await h.openPage(h.fixtures.html('/shop', shopPage(), 'Shop'));
    const s = (await agent.call('get_state', {})).new_simplified_state as SimplifiedState;
    tabId = s.tab_id as number;
  });
  after(async () => {
    if (ratios.length) {
      // The committed table is refreshed only on request (BUX_RECORD_RESULTS=1): a test run must not
      // change tracked files. Every run leaves its table in test-artifacts/.
      const out =
        process.env['BUX_RECORD_RESULTS'] === '1'
          ? path.join(REPO_ROOT, 'bench', 'results', 'state-delta.md')
          : path.join(REPO_ROOT, 'test-artifacts', 'state-delta.md');
      fs.mkdirSync(path.dirname(out), { recursive: true });
      const head = `# State deltas: bytes of a get_state since delta vs the full state (test/e2e/state-delta.spec.ts)\n\nRun ${new Date().toISOString()}, load: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}\n\n| change | full state bytes | delta bytes | delta / full |\n|---|---|---|---|\n`;
      fs.writeFileSync(out, `${head}${ratios.join('\n')}\n`);
    }
    await h?.close();
  });

  it('typing into a field: the delta holds that field, applies to a fresh full state, <= 10% of its bytes (whole page)', async () => {
    const { delta } = await deltaAfter(
      'type "SPRING" into a field, whole page',
      { viewport_expansion: -1 },
      async () => {
        await page.type('#coupon', 'SPRING');
      },
      0.1,
    );
    expect(
      (delta.elements_patched ?? []).some((e) => e.current_value === 'SPRING'),
      JSON.stringify(delta),
    ).to.equal(true);
  });

  it('toggling a checkbox: one element changes (viewport and whole page)', async () => {
    for (const params of [{}, { viewport_expansion: -1 }] as GetStateParams[]) {
      const { delta } = await deltaAfter(
        `toggle a checkbox, ${params.viewport_expansion === -1 ? 'whole page' : 'viewport'}`,
        params,
        async () => {
          await page.click('#gift');
        },
        0.1,
      );
      expect(
        (delta.elements_patched ?? []).some((e) => e.states?.checked !== undefined),
        JSON.stringify(delta),
      ).to.equal(true);
    }
  });

  it('appending a list item: the new item comes as added element and text, the rest by reference (whole page)', async () => {
    const { delta, next } = await deltaAfter(
      'append a to-do item, whole page',
      { viewport_expansion: -1 },
      async () => {
        await page.evaluate(() => {
          const li = document.createElement('li');
          li.innerHTML = 'Water plants <button>Done</button>';
          document.getElementById('todo')?.append(li);
        });
      },
      0.1,
    );
    expect(delta.elements_added?.length).to.equal(1);
    expect((delta.text_splices ?? []).flatMap((s) => s.insert.map((t) => t.text))).to.include('Water plants');
    // Renderers take the reconstructed state as any other.
    expect(renderBrowserUse(next)).to.contain('Water plants');
  });

  it("with dom_tree (the Python shim's get_state): typing is patched into the tree, <= 10%", async () => {
    const params: GetStateParams = { include_dom_tree: true, viewport_expansion: -1 };
    const { delta } = await deltaAfter(
      'type into a field, whole page with dom_tree',
      params,
      async () => {
        await page.type('#search', 'tea');
      },
      0.1,
    );
    expect(delta.facts?.dom_tree, 'the tree is patched, not resent').to.equal(undefined);
  });

  it('a form-heavy bench page (50 fieldsets): typing one name moves <= 10%', async () => {
    await page.goto(h.fixtures.html('/form', formPage(), 'Form'), { waitUntil: 'load' });
    await deltaAfter(
      'type into one field of bench formPage, whole page',
      { viewport_expansion: -1 },
      async () => {
        await page.type('#n3', 'Ada');
      },
      0.1,
    );
    await page.goto(h.fixtures.html('/shop', shopPage(), 'Shop'), { waitUntil: 'load' });
  });

  it('a navigation since the base: a full state of the new page with delta_unavailable navigated', async () => {
    const base = await full();
    await page.goto(h.fixtures.html('/other', '<h1>Other</h1><a href="/">Home</a>', 'Other'), { waitUntil: 'load' });
    const r = await call({ since: base.state_id as string });
    expect(r.state_delta).to.equal(undefined);
    const s = r.new_simplified_state as SimplifiedState;
    expect(s.title).to.equal('Other');
    expect(s.delta_unavailable?.reason).to.equal('navigated');
    await page.goto(h.fixtures.html('/shop', shopPage(), 'Shop'), { waitUntil: 'load' });
  });

  it("an unknown or another tab's state id: a full state with the reason, never an error", async () => {
    const r = await call({ since: 'no-such-state' });
    expect(r.new_simplified_state?.delta_unavailable?.reason).to.equal('unknown_state');
    expect(r.new_simplified_state?.actionable_elements.length).to.be.greaterThan(10);
    const opened = await agent.call('open_tab', { url: h.fixtures.html('/two', '<button>Two</button>', 'Two') });
    expect(opened.status, JSON.stringify(opened.error_info)).to.equal('success');
    const otherTab = (opened.outcome_details?.result as { tab_id: number }).tab_id;
    const there = await agent.call('get_state', {}, { tabId: otherTab });
    const here = await call({ since: there.new_simplified_state?.state_id as string });
    expect(here.new_simplified_state?.delta_unavailable?.reason).to.equal('other_tab');
    await agent.call('close_tab', { tab_id: otherTab });
  });

  it('an action with state_since: the state after a click comes as a delta, rebuilt by the client, <= 10%', async () => {
    const base = await agent.getState({}, { tabId });
    const gift = base.new_simplified_state?.actionable_elements.find((e) => e.attributes['id'] === 'gift');
    expect(gift, 'the gift checkbox is listed').to.not.equal(undefined);
    const r = await agent.call('click', { element_id: gift?.id as string }, { tabId, deltaState: true });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.state_delta, `a delta (${JSON.stringify(r.new_simplified_state?.delta_unavailable)})`).to.not.equal(undefined);
    const fresh = await full();
    expect(comparable(r.new_simplified_state as SimplifiedState)).to.deep.equal(comparable(fresh));
    const ratio = jsonBytes(r.state_delta) / jsonBytes(fresh);
    ratios.push(
      `| click a checkbox (action state_since), viewport | ${jsonBytes(fresh)} | ${jsonBytes(r.state_delta)} | ${(ratio * 100).toFixed(1)}% |`,
    );
    expect(ratio).to.be.at.most(0.1);
  });

  it('the TS client: getState() asks since its last state and returns the reconstructed whole state', async () => {
    await agent.getState({ viewport_expansion: -1 }, { tabId });
    await page.type('#coupon', 'X');
    const r = await agent.getState({ viewport_expansion: -1 }, { tabId });
    expect(r.state_delta, 'answered by a delta').to.not.equal(undefined);
    const fresh = await full({ viewport_expansion: -1 });
    expect(comparable(r.new_simplified_state as SimplifiedState)).to.deep.equal(comparable(fresh));
  });
});
