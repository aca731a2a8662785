// visibility:hidden subtrees in the state: nothing hidden is listed or read, and what a descendant
// makes visible again (visibility:visible) is, with the same rules as anywhere else: the pointer
// rule sees the hidden ancestor's cursor, and a hidden label that operates a styled-away control
// still keeps that control from being listed on its own. The walk skips the markup and cursor rules
// for hidden elements and reads no hidden text (walk.ts); these cases pin what the state says.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { GetStateParams, SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, startHarness } from '../harness/harness';

let h: Harness;
let agent: AgentClient;
let page: Page;
let tabId: number | undefined;

async function state(params: GetStateParams): Promise<SimplifiedState> {
  const r = await agent.call('get_state', params, tabId === undefined ? {} : { tabId });
  expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
  const s = r.new_simplified_state as SimplifiedState;
  tabId = s.tab_id;
  return s;
}

describe('e2e: visibility:hidden subtrees in the state', function () {
  this.timeout(60_000);
  before(async function () {
    h = await startHarness();
    agent = await h.connectAgent();
    page = await h.openPage(h.fixtures.html('/start', '<p>start</p>'));
  });
  after(async () => {
    await h?.close();
  });

  for (const scope of [
    { name: 'whole page', params: { viewport_expansion: -1 } },
    { name: 'viewport', params: {} },
  ]) {
    it(`lists and reads only what is visible again inside hidden subtrees (${scope.name})`, async () => {
      await page.goto(
        h.fixtures.html(
          '/visibility',
          `<button>Before</button>
          <div style="visibility:hidden">
            <a href="#a">Hidden link</a>
            <span style="cursor:pointer">Hidden pointer</span>
            <input type="checkbox" aria-label="Hidden box">
            <p>Hidden text</p>
            <button style="visibility:visible">Shown again</button>
            <p style="visibility:visible">Visible text</p>
            <span style="visibility:visible;cursor:pointer">Own pointer</span>
          </div>
          <div style="visibility:hidden;cursor:pointer"><span style="visibility:visible">Inherited pointer</span></div>
          <div style="visibility:hidden"><label for="styled">Hidden label</label></div>
          <input id="styled" style="opacity:0" aria-label="Styled away">
          <button>After</button>`,
        ),
        { waitUntil: 'load' },
      );
      const s = await state(scope.params);
      // A generic element has no name of its own: its text says what it is.
      expect(s.actionable_elements.map((e) => [e.role, e.name || e.text_content])).to.deep.equal([
        ['button', 'Before'],
        ['button', 'Shown again'],
        ['generic', 'Own pointer'],
        ['button', 'After'],
      ]);
      const texts = (s.text_context ?? []).map((t) => t.text).join(' | ');
      expect(texts).to.include('Visible text');
      expect(texts).to.include('Inherited pointer');
      for (const hidden of ['Hidden text', 'Hidden link', 'Hidden pointer', 'Hidden label']) expect(texts).to.not.include(hidden);
    });
  }
});
