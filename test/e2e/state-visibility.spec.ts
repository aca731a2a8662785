// visibility:hidden subtrees in the state: nothing hidden is listed or read, and what a descendant
// makes visible again (visibility:visible) is, with the same rules as anywhere else: the pointer
// rule sees the hidden ancestor's cursor, and a hidden label that operates a styled-away control
// still keeps that control from being listed on its own. The walk skips the markup and cursor rules
// for hidden elements and reads no hidden text (walk.ts); these cases pin what the state says.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { GetStateParams } from '../../schemas/generated/protocol';
import { type AgentPage, type Harness, useAgentPage } from '../harness/harness';

let h: Harness;
let page: Page;
let t: AgentPage;

const state = (params: GetStateParams) => t.state(params);

describe('e2e: visibility:hidden subtrees in the state', function () {
  this.timeout(60_000);
  useAgentPage((started) => ({ h, page } = t = started));

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
