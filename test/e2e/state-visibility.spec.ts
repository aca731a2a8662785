// visibility:hidden subtrees in the state: nothing hidden is listed or read, and what a descendant
// makes visible again (visibility:visible) is, with the same rules as anywhere else: the pointer
// rule sees the hidden ancestor's cursor, and a hidden label that operates a styled-away control
// still keeps that control from being listed on its own. The walk skips the markup and cursor rules
// for hidden elements and reads no hidden text (walk.ts), and does not enter a hidden subtree in
// which nothing can be visible again (hidden-prune.ts); these cases pin what the state says,
// including each way a descendant can be visible again that the skip must see.
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

  for (const scope of [
    { name: 'whole page', params: { viewport_expansion: -1 } },
    { name: 'viewport', params: {} },
  ]) {
    it(`finds every way a hidden subtree's descendant is visible again (${scope.name})`, async () => {
      await page.goto(
        h.fixtures.html(
          '/visibility-again',
          `<style>
            .menu { visibility: hidden }
            .menu .again { visibility: visible }
            .menu .hovered:hover { visibility: visible }
            @media print { .menu .printed { visibility: var(--shown, visible) } }
          </style>
          <button>Before</button>
          <div class="menu"><div><a href="#1" class="again">By a sheet rule</a></div></div>
          <div class="menu"><div><a href="#2" style="all: initial">By all: initial</a></div></div>
          <div class="menu"><div><a href="#3" id="animated">By an animation</a></div></div>
          <div class="menu"><div id="host"></div></div>
          <div class="menu"><div><a href="#6" class="hovered">Not hovered</a> <a href="#7" class="printed">Not printed</a></div></div>
          <div class="menu"><div><a href="#8">Hidden for good</a><label for="styled">Hidden label</label></div></div>
          <div class="menu"><iframe title="Hidden frame" srcdoc="<button>In a hidden frame</button>"></iframe></div>
          <input id="styled" style="opacity:0" aria-label="Styled away">
          <button>After</button>
          <script>
            document.getElementById('animated').animate([{ visibility: 'visible' }, { visibility: 'visible' }], { duration: 1e7 });
            document.getElementById('host').attachShadow({ mode: 'closed' }).innerHTML =
              '<style>a { visibility: visible }</style><a href="#4">In a shadow tree</a>';
          </script>`,
        ),
        { waitUntil: 'load' },
      );
      const s = await state(scope.params);
      expect(s.actionable_elements.map((e) => e.name)).to.deep.equal([
        'Before',
        'By a sheet rule',
        'By all: initial',
        'By an animation',
        'In a shadow tree',
        'After',
      ]);
      // The hidden iframe is still reported (as hidden), and its content is not read.
      expect((s.frames ?? []).filter((f) => f.frame_id !== 0).map((f) => f.status)).to.deep.equal(['hidden']);
      const texts = (s.text_context ?? []).map((t) => t.text).join(' | ');
      for (const hidden of ['Hidden for good', 'Hidden label', 'Not hovered', 'Not printed', 'In a hidden frame'])
        expect(texts).to.not.include(hidden);
    });
  }
});
