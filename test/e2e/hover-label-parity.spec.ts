// Hover and labels as Playwright does them. A hover moves a pointer: the page hears the boundary
// events Chromium dispatches for a real pointer (enter on every ancestor it entered, out and leave
// on what it left), compared side by side with puppeteer hovering the same page directly; and a
// menu shown only by CSS :hover opens (browser_use 0.1.48's own custom-functions/hover_element.py:
// hover the CSS-hover box, then click the button it reveals). Text for a <label> goes into its
// control, as Playwright's fill retargets it (https://playwright.dev/docs/api/class-locator#locator-fill);
// check on a label checks its box.
import { expect } from 'chai';

import { type Harness, useHarness } from '../harness/harness';
import { open, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

/** Nested boxes and a sibling; the page logs every boundary and move event. Enter and leave are
 * heard on each element itself: Chromium sends them only to elements listening for them, so a
 * window listener alone would hear none. */
const HOVER_PAGE = `<style>div { padding: 12px; margin: 4px }</style>
  <div id="outer"><div id="mid"><button id="inner">Inner</button></div></div>
  <div id="other">Other</div>
  <script>
    window.seen = [];
    const log = (e) => seen.push(e.type + ' ' + (e.target.id || e.target.localName));
    for (const t of ['pointerover', 'pointerout', 'pointermove', 'mouseover', 'mouseout', 'mousemove']) addEventListener(t, log, true);
    for (const el of document.querySelectorAll('*'))
      for (const t of ['pointerenter', 'pointerleave', 'mouseenter', 'mouseleave'])
        el.addEventListener(t, (e) => e.target === el && log(e));
  </script>`;

describe('e2e: hover and labels as Playwright', function () {
  this.timeout(60_000);
  let h: Harness;
  useHarness((started) => (h = started), {
    prepare: quietSettle,
    cleanup: (started) => clearSettings(started, ['trusted_input']),
  });

  it("hover: the page hears Chromium's own boundary events, ancestors entered and elements left, as when puppeteer hovers it", async () => {
    const o = await open(h, HOVER_PAGE, 'Hover order');
    await o.ok('hover', { selector: '#inner' });
    await o.ok('hover', { selector: '#other' });
    const ours = await o.eval<string[]>('window.seen');
    // The same page hovered by puppeteer's real mouse (Input.dispatchMouseEvent), no agent involved.
    const ref = await h.openPage(o.page.url());
    await ref.hover('#inner');
    await ref.hover('#other');
    const chromium = await ref.evaluate(() => (window as unknown as { seen: string[] }).seen);
    await ref.close();
    expect(chromium, "Chromium's order enters every ancestor").to.include.members(['mouseenter outer', 'mouseenter mid', 'mouseleave mid']);
    expect(ours).to.deep.equal(chromium);
    await o.page.close();
  });

  it('hover with trusted input off sets CSS :hover where the page styles the element so (hover_element.py), then the revealed button is clicked', async () => {
    const o = await open(
      h,
      `<style>#hoverdivpara .reveal { display: none } #hoverdivpara:hover .reveal { display: block }</style>
      <div id="hoverdivpara" style="width:300px;padding:10px;background:#eee">Hover over me
        <p class="reveal"><button id="clickme" onclick="this.textContent = 'You clicked me'">Can you click me?</button></p></div>`,
      'CSS hover',
    );
    const hovered = await o.ok('hover', { selector: '#hoverdivpara' });
    expect(hovered['css_hover'], 'a real pointer made the hover').to.equal(true);
    expect(await o.eval('document.getElementById("hoverdivpara").matches(":hover")')).to.equal(true);
    await o.ok('click', { selector: '#clickme', timeout_ms: 2000 });
    expect(await o.eval('document.getElementById("clickme").textContent')).to.equal('You clicked me');
    await o.page.close();
  });

  for (const trusted of [false, true]) {
    it(`fill and type on a <label> go into its control; check on a label checks its box (trusted input ${trusted ? 'on' : 'off'})`, async () => {
      await setSettings(h, { trusted_input: trusted });
      const o = await open(
        h,
        `<label id="for-user" for="user">Username</label> <input id="user">
         <label id="wrap-pass">Password <input id="pass" type="password"></label>
         <label id="wrap-box"><input id="box" type="checkbox"> Remember me</label>
         <label id="lonely">No control</label>`,
        'Labels',
      );
      const filled = await o.ok('fill', { selector: '#for-user', value: 'ada' });
      expect(await o.eval('document.getElementById("user").value')).to.equal('ada');
      expect(filled['element_id'], "the result names the label's control").to.equal(await o.id('user'));
      await o.ok('type', { selector: '#wrap-pass', text: 's3cret' });
      expect(await o.eval('document.getElementById("pass").value')).to.equal('s3cret');
      await o.ok('check', { selector: '#wrap-box' });
      expect(await o.eval('document.getElementById("box").checked')).to.equal(true);
      // A label whose control takes no text (or that has none) is still refused, never a false success.
      await o.fails('fill', { selector: '#wrap-box', value: 'x' }, 'NOT_FILLABLE');
      await o.fails('fill', { selector: '#lonely', value: 'x' }, 'NOT_FILLABLE');
      await o.page.close();
    });
  }
});
