// Typing the page interrupts, in real Chromium with the built extension: type (or fill) cut short by
// a navigation or a closed tab never answers success; it says how many characters went in. Both the
// content script's synthetic keys and trusted keys (chrome.debugger).
import { expect } from 'chai';

import type { ActionResultMessage } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { open, type Opened, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** An input whose page navigates to `to` on its 5th keydown (a search box that jumps to results). */
const navigatesOnFifthKey = (to: string) => `<input id="f">
<script>
  let keys = 0;
  document.getElementById('f').addEventListener('keydown', () => { if (++keys === 5) location.href = ${JSON.stringify(to)}; });
</script>`;

/** An input whose page asks the test to close its tab on the 5th keydown. */
const CLOSES_ON_FIFTH_KEY = `<input id="f">
<script>
  let keys = 0;
  document.getElementById('f').addEventListener('keydown', () => { if (++keys === 5) window.closeMyTab(); });
</script>`;

/** A form whose Enter submits it (a navigation after every character went in). */
const SUBMITS_ON_ENTER = (to: string) => `<form action=${JSON.stringify(to)} method="get"><input id="q" name="q"></form>`;

function cutShort(r: ActionResultMessage, code: 'NAVIGATED_AWAY' | 'TAB_NOT_FOUND'): { typed: number; total: number } {
  expect(r.status, `must not be success: ${JSON.stringify(r.outcome_details)}`).to.equal('error');
  expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal(code);
  const d = r.error_info?.details ?? {};
  const typed = d['chars_typed'] as number;
  const total = d['chars_total'] as number;
  expect(total).to.equal(26);
  expect(typed, `chars_typed ${typed}`).to.be.a('number').greaterThan(0).lessThan(26);
  expect(r.error_info?.message).to.match(new RegExp(`${typed} of 26 characters`));
  expect(r.error_info?.message).to.match(/new state/);
  console.log(`      ${code}: chars_typed ${typed} of ${total}`);
  return { typed, total };
}

async function closeOnRequest(o: Opened): Promise<void> {
  await o.page.exposeFunction('closeMyTab', () => void o.page.close());
}

/** A harness with settling quiet, and trusted input on for the trusted variant (off again after). */
function useInputHarness(trusted: boolean, got: (h: Harness) => void): void {
  useHarness(got, {
    prepare: async (started) => {
      await quietSettle(started);
      if (trusted) await setSettings(started, { trusted_input: true });
    },
    cleanup: (started) => (trusted ? clearSettings(started, ['trusted_input']) : undefined),
  });
}

function typingCases(trusted: boolean) {
  return () => {
    let h: Harness;
    useInputHarness(trusted, (started) => (h = started));

    it('a navigation after the 5th keystroke: NAVIGATED_AWAY with how many characters went in', async () => {
      const other = h.fixtures.html(`/typing-elsewhere-${trusted}`, '<p>Results</p>', 'Elsewhere');
      const o = await open(h, navigatesOnFifthKey(other));
      const r = await o.call('type', { selector: '#f', text: ALPHABET, delay_ms: 150 });
      const { typed } = cutShort(r, 'NAVIGATED_AWAY');
      expect(typed, 'typing stops within a keystroke of the navigation').to.be.within(5, 6);
      expect(r.error_info?.message).to.match(/navigated/);
      expect(r.new_simplified_state?.url).to.equal(other);
      await o.page.close();
    });

    it('the tab closed after the 5th keystroke: TAB_NOT_FOUND with how many characters went in', async () => {
      const o = await open(h, CLOSES_ON_FIFTH_KEY);
      await closeOnRequest(o);
      const r = await o.call('type', { selector: '#f', text: ALPHABET, delay_ms: 150 });
      const { typed } = cutShort(r, 'TAB_NOT_FOUND');
      // A key counts once its whole press has run: trusted keys once Chrome answered, synthetic ones
      // once their keyup (a task after the keydown, as in Chromium) has fired. The key the tab closed
      // in the middle of (the 5th, whose keydown closes it) may or may not have gone in and is not
      // counted: chars_typed never claims a key it could not confirm, so 4 is a correct answer.
      expect(typed).to.be.within(4, 7);
      expect(r.error_info?.message).to.match(/closed/);
    });

    it('fill waiting for a disabled field when the page navigates: NAVIGATED_AWAY, nothing typed', async () => {
      const other = h.fixtures.html(`/fill-elsewhere-${trusted}`, '<p>Moved on</p>', 'Elsewhere');
      const o = await open(h, `<input id="f" disabled><script>setTimeout(() => (location.href = ${JSON.stringify(other)}), 400);</script>`);
      const r = await o.call('fill', { selector: '#f', value: 'hello', timeout_ms: 3000 });
      expect(r.status, `must not be success: ${JSON.stringify(r.outcome_details)}`).to.equal('error');
      expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NAVIGATED_AWAY');
      expect(r.error_info?.details).to.include({ chars_typed: 0, chars_total: 5 });
      expect(r.error_info?.message).to.match(/0 of 5 characters went in/);
      await o.page.close();
    });

    it('every character typed, then Enter submits the form: success with the navigation noted', async () => {
      const results = h.fixtures.html(`/typing-results-${trusted}`, '<p>Results</p>', 'Results');
      const o = await open(h, SUBMITS_ON_ENTER(results));
      const r = await o.call('type', { selector: '#q', text: 'kittens\n' });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.outcome_details?.navigation_occurred).to.equal(true);
      expect(r.new_simplified_state?.url).to.match(/typing-results-.*\?q=kittens$/);
      expect(r.outcome_details?.result).to.include({ chars_typed: 8 });
      await o.page.close();
    });

    it('press Enter that submits the form: success with the navigation noted', async () => {
      const results = h.fixtures.html(`/press-results-${trusted}`, '<p>Results</p>', 'Results');
      const o = await open(h, SUBMITS_ON_ENTER(results).replace('<input id="q" name="q">', '<input id="q" name="q" value="cats">'));
      const r = await o.call('press', { selector: '#q', key: 'Enter' });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.outcome_details?.navigation_occurred).to.equal(true);
      expect(r.new_simplified_state?.url).to.match(/press-results-.*\?q=cats$/);
      await o.page.close();
    });
  };
}

/** Clicks the page leaves while they still wait for their element: nothing was clicked, never success. */
function pointerCases(trusted: boolean) {
  return () => {
    let h: Harness;
    useInputHarness(trusted, (started) => (h = started));

    for (const action of ['click', 'check', 'hover'] as const) {
      it(`${action} waiting for a hidden element when the page navigates: NAVIGATED_AWAY, nothing done`, async () => {
        const other = h.fixtures.html(`/${action}-elsewhere-${trusted}`, '<p>Moved on</p>', 'Elsewhere');
        const o = await open(
          h,
          `<label hidden id="l"><input type="checkbox" id="t"> Target</label>` +
            `<script>setTimeout(() => (location.href = ${JSON.stringify(other)}), 400);</script>`,
        );
        const r = await o.call(action, { selector: '#t', timeout_ms: 3000 });
        expect(r.status, `must not be success: ${JSON.stringify(r.outcome_details)}`).to.equal('error');
        expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NAVIGATED_AWAY');
        expect(r.error_info?.details).to.include({ acted: false });
        expect(r.error_info?.message).to.match(/before anything was done to it/);
        expect(r.new_simplified_state?.url).to.equal(other);
        await o.page.close();
      });
    }

    it('a link click that navigates: success with the navigation noted', async () => {
      const other = h.fixtures.html(`/link-target-${trusted}`, '<p>Arrived</p>', 'Arrived');
      const o = await open(h, `<a id="go" href=${JSON.stringify(other)}>Go</a>`);
      const r = await o.call('click', { selector: '#go' });
      expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
      expect(r.outcome_details?.navigation_occurred).to.equal(true);
      expect(r.new_simplified_state?.url).to.equal(other);
      await o.page.close();
    });
  };
}

describe('e2e: typing the page cuts short is never success', function () {
  describe('synthetic typing (content script)', typingCases(false));
  describe('trusted typing (chrome.debugger)', typingCases(true));
});

describe('e2e: a click the page leaves before it acts is never success', function () {
  describe('synthetic input (content script)', pointerCases(false));
  describe('trusted input (chrome.debugger)', pointerCases(true));
});
