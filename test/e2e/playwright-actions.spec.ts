// Behaviours of Playwright's public action tests (tests/page/page-click, page-fill, page-check,
// page-select-option, page-keyboard, elementhandle-*), written as our own cases and run in real
// Chromium through the protocol (bridge -> extension -> page), each suite twice: with synthetic
// input and with trusted input (chrome.debugger Input.*). Assertions are about what the page sees
// (values, events, key/code/location, checked state), never about which route was taken, except
// where a case is about trusted input itself.
import { expect } from 'chai';

import { type Harness, startHarness } from '../harness/harness';
import { eventLog, open, type Opened, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

/** Records "type|key|code|location|shift|ctrl|alt|meta" for key events. */
const KEY_LOG = eventLog({
  name: 'keys',
  types: ['keydown', 'keypress', 'keyup'],
  entry: "[t, e.key, e.code, e.location, e.shiftKey, e.ctrlKey, e.altKey, e.metaKey].join('|')",
});
/** Records "input:id" and "change:id". */
const INPUT_CHANGE_LOG = eventLog({ name: 'ev', types: ['input', 'change'] });

for (const trusted of [false, true]) {
  describe(`Playwright action behaviours (trusted input ${trusted ? 'on' : 'off'})`, function () {
    this.timeout(60_000);
    let h: Harness;
    before(async function () {
      h = await startHarness();
      await quietSettle(h);
      if (trusted) await setSettings(h, { trusted_input: true });
    });
    after(async () => {
      if (h && trusted) await clearSettings(h, ['trusted_input']);
      await h?.close();
    });
    // One agent session and one tab per page; both end after each case, so the cases never reach
    // the bridge's session cap and Chromium keeps few tabs open.
    let opened: Opened[] = [];
    const page = async (body: string): Promise<Opened> => {
      const o = await open(h, body);
      opened.push(o);
      return o;
    };
    afterEach(async () => {
      const done = opened;
      opened = [];
      for (const o of done) {
        await o.agent.close().catch(() => undefined);
        await o.page.close().catch(() => undefined);
      }
    });

    // ---- page-click ------------------------------------------------------------------------------
    describe('click', () => {
      it('clicks a button; the click handler runs once', async () => {
        const o = await page(
          `<button id="b" onclick="window.result = (window.result || 0) + 1; window.trusted = event.isTrusted">Click target</button>`,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal(1);
        expect(await o.eval('window.trusted'), 'the suite runs the input route it names').to.equal(trusted);
      });

      it('clicks a button far below the fold after scrolling it into view', async () => {
        const o = await page(`<div style="height:3000px"></div><button id="b" onclick="window.result='clicked'">Far</button>`);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('clicked');
        expect(await o.eval<number>('scrollY')).to.be.greaterThan(1000);
      });

      it('clicks a 1x1 div', async () => {
        const o = await page(`<div id="d" style="width:1px;height:1px" onclick="window.result='1x1'"></div>`);
        await o.ok('click', { selector: '#d', force: false });
        expect(await o.eval('window.result')).to.equal('1x1');
      });

      it('clicks a link wrapped over two lines', async () => {
        const o = await page(`<div style="width:60px;font-size:16px"><a id="a" href="#clicked">wrapped link text here</a></div>`);
        await o.ok('click', { selector: '#a' });
        expect(await o.eval('location.hash')).to.equal('#clicked');
      });

      it("clicks an inline link split over two lines whose box centre is on its wrapper's text", async () => {
        const o = await page(
          `<div id="wrap" style="width:20ch;font:16px/20px monospace">0123456789012345 <a id="a" href="#split">ab cd</a> 0123456789012345</div>`,
        );
        expect(await o.eval('document.getElementById("a").getClientRects().length'), 'the link is on two lines').to.equal(2);
        await o.ok('click', { selector: '#a' });
        expect(await o.eval('location.hash')).to.equal('#split');
      });

      it('clicks a rotated link that is not reported covered by its own wrapper', async () => {
        const o = await page(
          `<div id="wrap" style="padding:40px"><a id="a" href="#rot" style="display:inline-block;width:160px;height:16px;transform:rotate(50deg);transform-origin:0 0">Rotated link text</a></div>`,
        );
        await o.ok('click', { selector: '#a' });
        expect(await o.eval('location.hash')).to.equal('#rot');
      });

      it('clicks an element inside a scrolled container (not covered by <html>)', async () => {
        // The button's box is inside the window but outside its container's visible part: the centre
        // falls on the page background (<html>) until the container itself is scrolled.
        const o = await page(
          `<div id="box" style="height:100px;overflow:auto"><div style="height:300px"></div><button id="b" onclick="window.result='inner'">Inner</button><div style="height:300px"></div></div>`,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('inner');
      });

      it('clicks an element under a sticky header by retrying another scroll alignment', async () => {
        const o =
          await page(`<div style="position:sticky;top:0;height:200px;background:#eee;z-index:5">sticky header</div><div style="height:1200px"></div>
          <button id="b" onclick="window.result='sticky'">Under header</button><div style="height:1200px"></div>
          <script>scrollTo(0, document.getElementById('b').offsetTop - 50);</script>`);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('sticky');
      });

      it('waits for an overlay to go away, and reports the covering element when it stays', async () => {
        const o =
          await page(`<button id="b" onclick="window.result='hit'">Target</button><div id="ov" style="position:fixed;inset:0;background:rgba(0,0,0,.2)">cookie banner</div>
          <script>setTimeout(() => document.getElementById('ov').remove(), 300)</script>`);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('hit');
        const p = await page(`<button id="b">Target</button><div id="ov" style="position:fixed;inset:0">Accept cookies</div>`);
        const err = await p.fails('click', { selector: '#b', timeout_ms: 400 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(err.details).to.deep.include({ check: 'receives_events' });
        expect((err.details as { covering_element: { id: string } }).covering_element.id).to.equal('ov');
      });

      it('waits for a disabled button to become enabled', async () => {
        const o = await page(
          `<button id="b" disabled onclick="window.result='enabled-click'">Later</button><script>setTimeout(() => document.getElementById('b').disabled = false, 300)</script>`,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('enabled-click');
      });

      it('clicks a checkbox and its label, toggling it', async () => {
        const o = await page(`<input type="checkbox" id="c"><label for="c" id="l">Label</label>`);
        await o.ok('click', { selector: '#c' });
        expect(await o.eval('document.getElementById("c").checked')).to.equal(true);
        await o.ok('click', { selector: '#l' });
        expect(await o.eval('document.getElementById("c").checked')).to.equal(false);
      });

      it('double_click fires dblclick; right click fires contextmenu', async () => {
        const ev = eventLog({ name: 'ev', on: ['b'], types: ['click', 'dblclick', 'contextmenu'], entry: 't' });
        const o = await page(`<button id="b">B</button>${ev.script}`);
        await o.ok('double_click', { selector: '#b' });
        expect(await ev.take(o)).to.deep.equal(['click', 'click', 'dblclick']);
        await o.ok('click', { selector: '#b', button: 'right' });
        expect(await ev.read(o)).to.deep.equal(['contextmenu']);
      });

      it('click with Shift held reports shiftKey', async () => {
        const o = await page(`<button id="b" onclick="window.mods=[event.shiftKey,event.ctrlKey,event.altKey]">B</button>`);
        await o.ok('click', { selector: '#b', modifiers: ['Shift'] });
        expect(await o.eval('window.mods')).to.deep.equal([true, false, false]);
      });

      it('clicks a display:contents button', async () => {
        const o = await page(`<button id="b" style="display:contents" onclick="window.result='contents'">Contents</button>`);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('contents');
      });

      it('clicks a display:contents button below the fold: visible through its text, scrolled into view, clicked', async () => {
        const o = await page(
          `<div style="height:3000px"></div><button id="b" style="display:contents" onclick="window.result='contents-far'">Far contents</button><div style="height:3000px"></div>`,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('contents-far');
        expect(await o.eval<number>('scrollY')).to.be.greaterThan(1000);
      });

      it('clicks a shadow-DOM button whose slotted light-DOM text is what the point hits (by role, and by its host)', async () => {
        const SHADOW = `<my-button><template shadowrootmode="open"><button onclick="window.result = (window.result || 0) + 1"><slot></slot></button></template><div>Foo</div></my-button>`;
        const o = await page(SHADOW);
        await o.ok('click', { role: 'button', name: 'Foo' });
        expect(await o.eval('window.result')).to.equal(1);
        await o.ok('click', { selector: 'my-button' });
        expect(await o.eval('window.result')).to.equal(2);
      });

      it('clicks an element whose button or link ancestor takes the hit (pointer-events:none label, role=button, a, role=link)', async () => {
        const o = await page(
          `<button id="b1" onclick="window.c1=true"><label id="t1" style="pointer-events:none">Click target</label></button>` +
            `<div role="button" onclick="window.c2=true"><div style="pointer-events:none"><span><div id="t2">Click target 2</div></span></div></div>` +
            `<a href="#" onclick="window.c3=true" id="outer"><div id="intermediate"><div id="t3" style="pointer-events:none">Inner</div></div></a>` +
            `<div role="link" onclick="window.c4=true"><div id="t4" style="pointer-events:none">Inner 4</div></div>`,
        );
        for (const n of [1, 2, 3, 4]) {
          await o.ok('click', { selector: `#t${n}` });
          expect(await o.eval(`window.c${n}`), `#t${n}`).to.equal(true);
        }
      });

      it('waits while the button around the target has pointer-events:none, then clicks', async () => {
        const o = await page(
          `<button onclick="window.clicked=true" style="pointer-events:none"><span id="s">Click target</span></button>` +
            `<script>setTimeout(() => document.querySelector('button').style.removeProperty('pointer-events'), 400)</script>`,
        );
        await o.ok('click', { selector: '#s' });
        expect(await o.eval('window.clicked')).to.equal(true);
        const p = await page(`<button style="pointer-events:none"><span id="s">Click target</span></button>`);
        const e = await p.fails('click', { selector: '#s', timeout_ms: 400 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(e.details).to.deep.include({ check: 'receives_events' });
      });

      it('clicks a button inside an iframe below the fold', async () => {
        h.fixtures.html('/pw-frame', `<button id="fb" onclick="document.body.dataset.clicked='yes'">In frame</button>`);
        const o = await page(`<div style="height:2500px"></div><iframe src="/pw-frame" style="width:300px;height:100px"></iframe>`);
        await new Promise((r) => setTimeout(r, 300));
        const s = (await o.call('get_state', { viewport_expansion: -1 })).new_simplified_state!;
        const fb = s.actionable_elements.find((e) => e.attributes['id'] === 'fb');
        expect(fb, 'the frame button is listed').to.not.equal(undefined);
        const r = await o.call('click', { element_id: fb!.id });
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        const frame = o.page.frames().find((f) => f.url().endsWith('/pw-frame'))!;
        expect(await frame.evaluate(() => document.body.dataset['clicked'])).to.equal('yes');
      });
    });

    // ---- page-click: the rest of its cases a bridge can express -----------------------------------
    describe('click (more of page-click)', () => {
      const BUTTON = `<button id="b">Click target</button><script>window.result = 'Was not clicked'; document.getElementById('b').addEventListener('click', (e) => { window.result = 'Clicked'; window.shiftKey = e.shiftKey; window.pageX = e.pageX; window.pageY = e.pageY; });</script>`;

      it('clicks an svg circle, a span whose only content is ::before, and a span whose first child sits off screen', async () => {
        const o = await page(
          `<svg height="100" width="100"><circle id="c" onclick="window.svg=42" cx="50" cy="50" r="40" stroke="black" stroke-width="3" fill="red" /></svg>` +
            `<style>#before::before { content: 'q'; } #inl i { position: absolute; top: -1000px; }</style><span id="before" onclick="window.before=42"></span>` +
            `<span id="inl" onclick="window.inl=42"><i>woof</i><b>doggo</b></span>`,
        );
        await o.ok('click', { selector: '#c' });
        await o.ok('click', { selector: '#before' });
        await o.ok('click', { selector: '#inl' });
        expect(await o.eval('[window.svg, window.before, window.inl]')).to.deep.equal([42, 42, 42]);
      });

      it('clicks half-aligned and unaligned 1x1 divs', async () => {
        const margins = ['20.5px 0 0 11.5px', '11.65px 0 0 20.23px', '11.13px 0 0 20.68px', '11.52px 0 0 20.68px', '11.24px 0 0 20.15px'];
        const o = await page(
          margins
            .map(
              (m, i) =>
                `<div style="position:absolute;top:${i * 30}px;left:0"><div id="d${i}" style="margin:${m};width:1px;height:1px" onclick="window.n${i}=true"></div></div>`,
            )
            .join(''),
        );
        for (const i of margins.keys()) {
          await o.ok('click', { selector: `#d${i}` });
          expect(await o.eval(`window.n${i}`), `#d${i}`).to.equal(true);
        }
      });

      it('clicks when window.Node is removed and when window.innerWidth is corrupted', async () => {
        const o = await page(BUTTON);
        await o.eval('delete window.Node');
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('Clicked');
        const p = await page(BUTTON);
        await p.eval("Object.defineProperty(window, 'innerWidth', { value: 0 })");
        await p.ok('click', { selector: '#b' });
        expect(await p.eval('window.result')).to.equal('Clicked');
      });

      it('clicks the button again after a navigation', async () => {
        const o = await page(BUTTON);
        await o.ok('click', { selector: '#b' });
        const url = h.fixtures.html('/pw-button-again', BUTTON);
        await o.ok('navigate', { url });
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('Clicked');
      });

      it('a triple click selects all the text of a textarea', async () => {
        const text = "This is the text that we are going to try to select. Let's see how it goes.";
        const o = await page(`<textarea id="t" style="width:800px"></textarea>`);
        await o.ok('fill', { selector: '#t', value: text });
        await o.ok('click', { selector: '#t', click_count: 3 });
        expect(
          await o.eval('(() => { const t = document.getElementById("t"); return t.value.substring(t.selectionStart, t.selectionEnd); })()'),
        ).to.equal(text);
      });

      it('clicks buttons that stick out of the right edge of the page (offscreen buttons)', async () => {
        const o = await page(
          `<style>button { position: absolute; width: 100px; height: 20px; margin: 0; } body, html { margin: 0; padding: 0; height: 100%; width: 100%; position: relative; } div { position: absolute; left: 0; top: 0; right: 0; bottom: 0; }</style><div>` +
            Array.from(
              { length: 11 },
              (_, i) => `<button id="btn${i}" style="right:${-10 * i}px;top:${25 * i}px" onclick="window.log.push(${i})">${i}</button>`,
            ).join('') +
            `</div><script>window.log = []</script>`,
        );
        for (let i = 0; i < 11; i++) {
          await o.eval('window.scrollTo(0, 0)');
          await o.ok('click', { selector: `#btn${i}` });
        }
        expect(await o.eval('window.log')).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      });

      it('force: true does not click a display:none button (not visible, never a false success)', async () => {
        const o = await page(`${BUTTON}<script>document.getElementById('b').style.display = 'none'</script>`);
        const r = await o.call('click', { selector: '#b', force: true, timeout_ms: 300 });
        expect(r.status).to.equal('error');
        expect(await o.eval('window.result')).to.equal('Was not clicked');
      });

      it('waits for display:none, visibility:hidden and a hidden parent to go, then clicks', async () => {
        for (const hide of ["b.style.display = 'none'", "b.style.visibility = 'hidden'", "b.parentElement.style.display = 'none'"]) {
          const show = hide.replace("'none'", "'block'").replace("'hidden'", "'visible'");
          const o = await page(
            `<div>${BUTTON}</div><script>{ const b = document.getElementById('b'); ${hide}; setTimeout(() => { ${show}; }, 400); }</script>`,
          );
          await o.ok('click', { selector: '#b' });
          expect(await o.eval('window.result'), hide).to.equal('Clicked');
        }
      });

      it('clicking a checkbox fires mouse events then click, input, change; its label fires click, input, change', async () => {
        const o = await page(`<label for="agree">Remember Me</label><input id="agree" type="checkbox">
          <script>window.result = { check: null, events: [] }; const cb = document.querySelector('input');
          for (const t of ['change','click','dblclick','input','mousedown','mouseenter','mouseleave','mousemove','mouseout','mouseover','mouseup'])
            cb.addEventListener(t, () => { if (['change','click','dblclick','input'].includes(t)) result.check = cb.checked; result.events.push(t); });</script>`);
        await o.ok('click', { selector: '#agree' });
        expect(await o.eval('window.result.check')).to.equal(true);
        const events = (await o.eval<string[]>('window.result.events')).filter((e) => e !== 'mouseout' && e !== 'mouseleave');
        expect(events).to.deep.equal(['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'click', 'input', 'change']);
        await o.ok('click', { selector: '#agree' });
        expect(await o.eval('window.result.check')).to.equal(false);
        const p = await page(`<label for="agree">Remember Me</label><input id="agree" type="checkbox">
          <script>window.result = { check: null, events: [] }; const cb = document.querySelector('input');
          for (const t of ['change','click','input']) cb.addEventListener(t, () => { result.check = cb.checked; result.events.push(t); });</script>`);
        await p.ok('click', { selector: 'label[for="agree"]' });
        expect(await p.eval('window.result')).to.deep.equal({ check: true, events: ['click', 'input', 'change'] });
        await p.ok('click', { selector: 'label[for="agree"]' });
        expect(await p.eval('window.result.check')).to.equal(false);
      });

      it('scrolls and clicks buttons of a long list, with smooth scroll-behavior on the page and in a container', async () => {
        const list = Array.from(
          { length: 100 },
          (_, i) =>
            `<button id="button-${i}" style="width:500px;height:20px;display:block" onclick="this.textContent='clicked'" oncontextmenu="event.preventDefault(); this.textContent='context menu'">${i}: not clicked</button>`,
        ).join('');
        const o = await page(`<style>html { scroll-behavior: smooth; }</style>${list}`);
        for (const id of ['button-5', 'button-80', 'button-20']) {
          await o.ok('click', { selector: `#${id}` });
          expect(await o.eval(`document.getElementById("${id}").textContent`)).to.equal('clicked');
        }
        await o.ok('click', { selector: '#button-8', button: 'right' });
        expect(await o.eval('document.getElementById("button-8").textContent')).to.equal('context menu');
        const p = await page(
          `<div style="border: 1px solid black; height: 500px; overflow: auto; width: 500px; scroll-behavior: smooth"><button style="margin-top: 2000px" onclick="window.clicked = true">hi</button></div>`,
        );
        await p.ok('click', { selector: 'button' });
        expect(await p.eval('window.clicked')).to.equal(true);
      });

      it('clicks a partially obscured (off the right edge) button and a link that navigates', async () => {
        const o = await page(
          `${BUTTON}<script>{ const b = document.getElementById('b'); b.textContent = 'Some really long text that will go offscreen'; b.style.position = 'absolute'; b.style.left = '368px'; }</script>`,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('Clicked');
        const target = h.fixtures.html('/pw-empty', '<p>empty</p>');
        const p = await page(`<a id="a" href="${target}">empty.html</a>`);
        await p.ok('click', { selector: '#a' });
        for (let i = 0; i < 50 && !p.page.url().endsWith('/pw-empty'); i++) await new Promise((r) => setTimeout(r, 100));
        expect(p.page.url()).to.match(/\/pw-empty$/);
      });

      it('clicks the target behind a fixed header and behind a position:absolute header over a scrolled list', async () => {
        const LIST = `<li>hi1</li><li>hi2</li><li>hi3</li><li>hi4</li><li>hi5</li><li>hi6</li><li>hi7</li><li>hi8</li><li id=target onclick="window.clicked = true">hi9</li><li>hi10</li><li>hi11</li><li>hi12</li><li>hi13</li><li id=li14>hi14</li>`;
        const o = await page(
          `<style>* { padding: 0; margin: 0; } li { height: 80px; border: 1px solid black; } ol { padding-top: 160px; } div.fixed { position: fixed; z-index: 1001; width: 100%; background: red; height: 160px; }</style><div class=fixed></div><ol>${LIST}</ol>`,
        );
        await o.eval("document.getElementById('li14').scrollIntoView()");
        await o.ok('click', { selector: '#target' });
        expect(await o.eval('window.clicked')).to.equal(true);
        const p = await page(
          `<style>* { padding: 0; margin: 0; } li { height: 80px; border: 1px solid black; } ol { height: 100vh; overflow: scroll; padding-top: 160px; } body { position: relative; } div.fixed { position: absolute; top: 0; z-index: 1001; width: 100%; background: red; height: 160px; }</style><ol>${LIST}</ol><div class=fixed>Overlay</div>`,
        );
        await p.eval(
          "(() => { const t = document.getElementById('target'); document.querySelector('ol').scrollTo({ top: t.offsetTop, behavior: 'instant' }); })()",
        );
        await p.ok('click', { selector: '#target' });
        expect(await p.eval('window.clicked')).to.equal(true);
      });

      it('waits for a moving button to hold still and clicks its centre', async () => {
        const o = await page(BUTTON);
        // As Playwright's case: the transition starts, two frames pass (so it runs), then the click.
        await o.eval(
          `(() => { const b = document.getElementById('b'); b.style.transition = 'margin 500ms linear 0s'; b.style.marginLeft = '200px'; b.style.borderWidth = '0'; b.style.width = '200px'; b.style.height = '20px'; b.style.display = 'block'; document.body.style.margin = '0'; })()`,
        );
        await o.eval('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
        expect(await o.eval('document.getElementById("b").getAnimations().length'), 'the button is moving when the click starts').to.equal(
          1,
        );
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('[window.result, window.pageX, window.pageY]')).to.deep.equal(['Clicked', 300, 10]);
      });

      it('waits for a fly-over to leave the button (becoming hit target)', async () => {
        const o =
          await page(`${BUTTON}<script>{ const b = document.getElementById('b'); b.style.borderWidth = '0'; b.style.width = '200px'; b.style.height = '20px'; document.body.style.margin = '0'; document.body.style.position = 'relative';
          const f = document.createElement('div'); f.style.cssText = 'position:absolute;width:400px;height:20px;left:0;top:0;background:red'; document.body.appendChild(f);
          setTimeout(() => { f.style.left = '200px'; }, 400); }</script>`);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.result')).to.equal('Clicked');
      });

      it('force: true on an obscured button clicks the point, which the blocker takes', async () => {
        const o = await page(
          `${BUTTON}<script>document.body.style.position = 'relative'; const bl = document.createElement('div'); bl.style.cssText = 'position:absolute;width:400px;height:20px;left:0;top:0'; document.body.appendChild(bl);</script>`,
        );
        await o.ok('click', { selector: '#b', force: true });
        expect(await o.eval('window.result')).to.equal('Was not clicked');
      });

      it('waits for a disabled button (clicked through its inner span), input and select to be enabled', async () => {
        const o = await page(
          `<button id="b" onclick="window.c1=true" disabled><span id="s">Click target</span></button><input id="i" onclick="window.c2=true" disabled>` +
            `<select id="sel" disabled><option selected>Hello</option></select><script>document.getElementById('sel').addEventListener('mousedown', (e) => { window.c3 = true; e.preventDefault(); });
            setTimeout(() => { for (const id of ['b', 'i', 'sel']) document.getElementById(id).removeAttribute('disabled'); }, 500);</script>`,
        );
        await o.ok('click', { selector: '#s' });
        await o.ok('click', { selector: '#i' });
        await o.ok('click', { selector: '#sel' });
        expect(await o.eval('[window.c1, window.c2, window.c3]')).to.deep.equal([true, true, true]);
        const p = await page(`<button disabled onclick="window.c=true"><span id="s">Click target</span></button>`);
        const e = await p.fails('click', { selector: '#s', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(e.details).to.deep.include({ check: 'enabled' });
        expect(await p.eval('window.c')).to.equal(undefined);
      });

      it('clicks a div with a disabled attribute, and waits for a pointer-events:none label', async () => {
        const o =
          await page(`<div id="d" onclick="window.c1=true" disabled>Click target</div><label id="l" onclick="window.c2=true" style="pointer-events:none"><span id="s">Click target 2</span></label>
          <script>setTimeout(() => document.getElementById('l').style.removeProperty('pointer-events'), 400)</script>`);
        await o.ok('click', { selector: '#d' });
        await o.ok('click', { selector: '#s' });
        expect(await o.eval('[window.c1, window.c2]')).to.deep.equal([true, true]);
      });

      it('modifiers hold only for the click that asks for them', async () => {
        const o = await page(BUTTON);
        await o.ok('click', { selector: '#b', modifiers: ['Shift'] });
        expect(await o.eval('window.shiftKey')).to.equal(true);
        await o.ok('click', { selector: '#b', modifiers: [] });
        expect(await o.eval('window.shiftKey')).to.equal(false);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.shiftKey')).to.equal(false);
      });

      it('clicks a zero-sized input through its label', async () => {
        const o = await page(
          `<label id="l">Click me<input onclick="window.clicked=true" style="width:0;height:0;padding:0;margin:0;border:0;"></label>`,
        );
        await o.ok('click', { selector: '#l' });
        expect(await o.eval('window.clicked')).to.equal(true);
      });

      it('clicks a button after a select was clicked, and clicks again after a right click', async () => {
        const o = await page(
          `<div><select id="s">${[1, 2, 3, 4, 5, 6].map((i) => `<option>very long text #${i}</option>`).join('')}</select></div><div><button id="b" onclick="window.clicked=42">clickme</button></div>`,
        );
        await o.ok('click', { selector: '#s' });
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('window.clicked')).to.equal(42);
        const p = await page(
          `<button id="b">Click me</button><script>const b = document.getElementById('b'); b.addEventListener('click', () => b.textContent = 'Clicked!');</script>`,
        );
        await p.ok('click', { role: 'button', button: 'right' });
        await p.ok('click', { role: 'button' });
        expect(await p.eval('document.getElementById("b").textContent')).to.equal('Clicked!');
      });

      it('clicks in an iframe with a border and margin', async () => {
        h.fixtures.html(
          '/pw-border-frame',
          `<style>body, html { margin: 0; padding: 0; } button { display: block; width: 100px; height: 50px; }</style><button id="fb" onclick="document.body.dataset.clicked='yes'">Click me</button>`,
        );
        const o = await page(
          `<style>body, html, iframe { margin: 0; padding: 0; border: none; box-sizing: border-box; } iframe { border: 4px solid black; background: gray; margin-left: 33px; margin-top: 24px; width: 400px; height: 400px; }</style><iframe src="/pw-border-frame"></iframe>`,
        );
        let fb: string | undefined;
        for (let i = 0; i < 30 && !fb; i++) {
          const s = (await o.call('get_state', {})).new_simplified_state!;
          fb = s.actionable_elements.find((e) => e.attributes['id'] === 'fb')?.id;
          if (!fb) await new Promise((r) => setTimeout(r, 100));
        }
        expect(fb, 'the frame button is listed').to.be.a('string');
        await o.ok('click', { element_id: fb! });
        const frame = o.page.frames().find((f) => f.url().endsWith('/pw-border-frame'))!;
        expect(await frame.evaluate(() => document.body.dataset['clicked'])).to.equal('yes');
      });
    });

    // ---- page-fill -------------------------------------------------------------------------------
    describe('fill', () => {
      it('fills a textarea and text-like inputs, replacing the existing value', async () => {
        const types = ['text', 'search', 'tel', 'url', 'email', 'password'];
        const o = await page(`<textarea id="ta">old</textarea>${types.map((t) => `<input id="i-${t}" type="${t}" value="old">`).join('')}`);
        await o.ok('fill', { selector: '#ta', value: 'some value' });
        expect(await o.eval('document.getElementById("ta").value')).to.equal('some value');
        for (const t of types) {
          await o.ok('fill', { selector: `#i-${t}`, value: t === 'email' ? 'a@b.co' : 'text value' });
          expect(await o.eval(`document.getElementById("i-${t}").value`)).to.equal(t === 'email' ? 'a@b.co' : 'text value');
        }
      });

      it('fills date, time, datetime-local, month, week, range and color by setting the value, with input and change', async () => {
        const cases: [string, string][] = [
          ['date', '2020-03-02'],
          ['time', '13:15'],
          ['datetime-local', '2020-03-02T05:15'],
          ['month', '2020-07'],
          ['week', '2020-W50'],
          ['range', '42'],
          ['color', '#aaaaaa'],
        ];
        const o = await page(`${cases.map(([t]) => `<input id="i-${t}" type="${t}">`).join('')}${INPUT_CHANGE_LOG.script}`);
        for (const [t, v] of cases) {
          await o.ok('fill', { selector: `#i-${t}`, value: v });
          expect(await o.eval(`document.getElementById("i-${t}").value`), t).to.equal(v);
        }
        const ev = await INPUT_CHANGE_LOG.read(o);
        for (const [t] of cases) expect(ev, t).to.include.members([`input:i-${t}`, `change:i-${t}`]);
      });

      it('a malformed date/time/color value is INVALID_VALUE and changes nothing', async () => {
        const o = await page(
          `<input id="d" type="date" value="2021-01-01"><input id="t" type="time"><input id="c" type="color"><input id="r" type="range" max="10">`,
        );
        const e = await o.fails('fill', { selector: '#d', value: '2020-13-05' }, 'INVALID_VALUE');
        expect(e.details).to.deep.include({ input_type: 'date' });
        expect(e.message).to.match(/YYYY-MM-DD/);
        expect(await o.eval('document.getElementById("d").value')).to.equal('2021-01-01');
        await o.fails('fill', { selector: '#t', value: '25:00' }, 'INVALID_VALUE');
        await o.fails('fill', { selector: '#c', value: 'red' }, 'INVALID_VALUE');
        await o.fails('fill', { selector: '#r', value: '50' }, 'INVALID_VALUE');
      });

      it('number inputs: "abc" is INVALID_VALUE, an exponent and the empty string are fine', async () => {
        const o = await page(`<input id="n" type="number" value="7">`);
        await o.fails('fill', { selector: '#n', value: 'abc' }, 'INVALID_VALUE');
        expect(await o.eval('document.getElementById("n").value')).to.equal('7');
        await o.ok('fill', { selector: '#n', value: '-10e5' });
        expect(await o.eval('document.getElementById("n").value')).to.equal('-10e5');
        await o.ok('fill', { selector: '#n', value: '' });
        expect(await o.eval('document.getElementById("n").value')).to.equal('');
      });

      it('checkbox, radio, file, button and select cannot be filled: NOT_FILLABLE at once, not after the timeout', async () => {
        const o = await page(
          `<input id="c" type="checkbox"><input id="r" type="radio"><input id="f" type="file"><button id="b">B</button><select id="s"><option>a</option></select><div id="d">plain</div>`,
        );
        for (const id of ['c', 'r', 'f', 'b', 's', 'd']) {
          const t0 = Date.now();
          const e = await o.fails('fill', { selector: `#${id}`, value: 'x', timeout_ms: 5000 }, 'NOT_FILLABLE');
          expect(Date.now() - t0, `#${id} fails fast`).to.be.lessThan(2500);
          expect(e.message).to.match(/check|select_option|click/);
        }
      });

      it('fills a contenteditable element', async () => {
        const o = await page(`<div id="ce" contenteditable="true">old</div>`);
        await o.ok('fill', { selector: '#ce', value: 'new content' });
        expect(await o.eval('document.getElementById("ce").textContent')).to.equal('new content');
      });

      it('fills a contenteditable <body>, and a designMode document, writing the text', async () => {
        const o = await page(`<body contenteditable="true"></body>`);
        await o.ok('fill', { selector: 'body', value: 'some value' });
        expect(await o.eval('document.body.textContent')).to.equal('some value');
        const d = await page(`<p id="p">old</p><script>document.designMode = 'on'</script>`);
        await d.ok('fill', { selector: 'body', value: 'design text' });
        expect(await d.eval('document.body.innerText.trim()')).to.equal('design text');
      });

      it('fills the contenteditable <body> of an iframe (an editor frame), or fails; never a success that wrote nothing', async () => {
        h.fixtures.html('/pw-editor-frame', `<body contenteditable="true"><p>old text</p></body>`);
        const o = await page(`<input id="outside"><iframe id="f" src="/pw-editor-frame" style="width:300px;height:120px"></iframe>`);
        await o.eval('document.getElementById("outside").focus()');
        const frame = await (async () => {
          for (let i = 0; i < 50; i++) {
            const f = o.page.frames().find((x) => x.url().endsWith('/pw-editor-frame'));
            if (f) return f;
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error('frame did not load');
        })();
        const s = (await o.call('get_state', { viewport_expansion: -1 })).new_simplified_state!;
        const body = s.actionable_elements.find((e) => e.tag === 'body' && e.id.startsWith('f'));
        expect(body, `the editor body is listed: ${JSON.stringify(s.actionable_elements.map((e) => [e.id, e.tag]))}`).to.not.equal(
          undefined,
        );
        const r = await o.call('fill', { element_id: body!.id, value: 'new text' });
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        expect(await frame.evaluate(() => document.body.innerText.trim())).to.equal('new text');
        expect(await o.eval('document.getElementById("outside").value'), 'nothing typed into the field that had focus').to.equal('');
      });

      it('fills a contenteditable while focus is in another frame', async () => {
        const o = await page(`<div id="d" contenteditable="true"></div><iframe id="f"></iframe>`);
        await o.eval('document.getElementById("f").focus()');
        await o.ok('fill', { selector: '#d', value: 'some value' });
        expect(await o.eval('document.getElementById("d").textContent')).to.equal('some value');
      });

      it('waits for a readonly input to become editable, and fails on the editable check when it stays readonly', async () => {
        const o = await page(
          `<input id="i" readonly><script>setTimeout(() => document.getElementById('i').readOnly = false, 300)</script>`,
        );
        await o.ok('fill', { selector: '#i', value: 'later' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('later');
        const p = await page(`<input id="ro" readonly value="fixed">`);
        const e = await p.fails('fill', { selector: '#ro', value: 'x', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(e.details).to.deep.include({ check: 'editable' });
      });

      it('clear empties a field', async () => {
        const o = await page(`<input id="i" value="something">`);
        await o.ok('clear', { selector: '#i' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('');
      });
    });

    // ---- page-fill: the rest of its cases a bridge can express ------------------------------------
    describe('fill (more of page-fill)', () => {
      const TEXTAREA = `<textarea id="ta" spellcheck="false"></textarea><input id="in"><div id="ce" contenteditable="true"></div><div class="plain">Plain div</div>
        <script>window.result = ''; for (const id of ['ta', 'in']) { const f = document.getElementById(id); f.addEventListener('input', () => window.result = f.value); }</script>`;

      it('fills an input of each free-text type (an unknown type is text) and reports the value through its input event', async () => {
        const o = await page(TEXTAREA);
        for (const type of ['password', 'search', 'tel', 'text', 'url', 'invalid-type']) {
          await o.eval(`document.getElementById('in').setAttribute('type', '${type}')`);
          await o.ok('fill', { selector: '#in', value: `text ${type}` });
          expect(await o.eval('window.result'), type).to.equal(`text ${type}`);
        }
      });

      it('image, reset and submit inputs cannot be filled either', async () => {
        const o = await page(`<input id="i">`);
        for (const type of ['button', 'checkbox', 'file', 'image', 'radio', 'reset', 'submit']) {
          await o.eval(`document.getElementById('i').setAttribute('type', '${type}')`);
          await o.fails('fill', { selector: '#i', value: '' }, 'NOT_FILLABLE');
        }
      });

      it('range and colour: a value out of range or step, a colour in any case, a malformed month, week and datetime-local', async () => {
        const o = await page(
          `<input id="r" type=range min=0 max=100 value=50><input id="c" type=color value="#e66465"><input id="m" type=month><input id="w" type=week><input id="dt" type=datetime-local>`,
        );
        for (const v of ['foo', '200', '15.43']) await o.fails('fill', { selector: '#r', value: v }, 'INVALID_VALUE');
        expect(await o.eval('document.getElementById("r").value')).to.equal('50');
        await o.ok('fill', { selector: '#c', value: '#AbCd00' });
        expect(await o.eval('document.getElementById("c").value')).to.equal('#abcd00');
        await o.fails('fill', { selector: '#c', value: 'badvalue' }, 'INVALID_VALUE');
        await o.fails('fill', { selector: '#m', value: '2020-13' }, 'INVALID_VALUE');
        await o.fails('fill', { selector: '#w', value: '2020-123' }, 'INVALID_VALUE');
        await o.fails('fill', { selector: '#dt', value: 'abc' }, 'INVALID_VALUE');
      });

      it('fills a date input after clicking it', async () => {
        const o = await page(`<input id="d" type=date>`);
        await o.ok('click', { selector: '#d' });
        await o.ok('fill', { selector: '#d', value: '2020-03-02' });
        expect(await o.eval('document.getElementById("d").value')).to.equal('2020-03-02');
      });

      it('the input event of a value-type fill is composed and leaves a shadow root; change is not composed', async () => {
        const cases: Record<string, string> = {
          color: '#aaaaaa',
          date: '2020-03-02',
          time: '13:15',
          'datetime-local': '2020-03-02T13:15:30',
          month: '2020-03',
          range: '42',
          week: '2020-W50',
        };
        const o = await page(`<script>window.hosts = {}; window.fired = {}; window.bodyFired = {};
          for (const [type] of ${JSON.stringify(Object.entries(cases))}) { const div = document.createElement('div'); div.id = 'host-' + type; const root = div.attachShadow({ mode: 'open' }); root.innerHTML = '<input type=' + type + '>'; document.body.appendChild(div);
            window.fired[type] = []; window.bodyFired[type] = [];
            for (const ev of ['input', 'change']) { root.querySelector('input').addEventListener(ev, (e) => window.fired[type].push(e.type + ':' + e.composed)); div.addEventListener(ev, (e) => { if (e.target === div) window.bodyFired[type].push(e.type + ':' + e.composed); }); } }</script>`);
        for (const [type, value] of Object.entries(cases)) {
          await o.ok('fill', { selector: `input[type=${type}]`, value });
          expect(await o.eval(`window.fired[${JSON.stringify(type)}]`), type).to.deep.equal(['input:true', 'change:false']);
          expect(await o.eval(`window.bodyFired[${JSON.stringify(type)}]`), type).to.deep.equal(['input:true']);
        }
      });

      it('fills a contenteditable with new lines, and one whose beforeinput handler writes the text itself, once', async () => {
        const o = await page(`<div id="ce" contenteditable="true"></div><div id="editor" contenteditable="true"></div>
          <script>const ed = document.getElementById('editor'); ed.addEventListener('beforeinput', (e) => { e.preventDefault(); ed.textContent = e.data; });</script>`);
        await o.ok('fill', { selector: '#ce', value: 'John\nDoe' });
        expect(await o.eval('document.getElementById("ce").innerText')).to.equal('John\nDoe');
        await o.ok('fill', { selector: '#editor', value: 'Playwright' });
        expect(await o.eval('document.getElementById("editor").textContent')).to.equal('Playwright');
      });

      it('replaces an existing value and selection in an input and a contenteditable', async () => {
        const o = await page(TEXTAREA);
        await o.eval("document.getElementById('in').value = 'value one'");
        await o.ok('fill', { selector: '#in', value: 'another value' });
        expect(await o.eval('window.result')).to.equal('another value');
        await o.eval("(() => { const i = document.getElementById('in'); i.selectionStart = 1; i.selectionEnd = 2; })()");
        await o.ok('fill', { selector: '#in', value: 'maybe this one' });
        expect(await o.eval('window.result')).to.equal('maybe this one');
        await o.eval(
          `(() => { const div = document.getElementById('ce'); div.innerHTML = 'some text <span>some more text<span> and even more text'; const range = document.createRange(); range.selectNodeContents(div.querySelector('span')); const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); })()`,
        );
        await o.ok('fill', { selector: '#ce', value: 'replace with this' });
        expect(await o.eval('document.getElementById("ce").textContent')).to.equal('replace with this');
      });

      it('a non-string value is refused before anything happens', async () => {
        const o = await page(TEXTAREA);
        const err = await o.call('fill', { selector: '#ta', value: 123 as unknown as string }).then(
          (r) => r.error_info,
          (e: { code?: string }) => e,
        );
        expect(
          (err as { code?: string; error_code?: string } | null)?.code ?? (err as { error_code?: string } | null)?.error_code,
        ).to.equal('INVALID_MESSAGE');
        expect(await o.eval('window.result')).to.equal('');
      });

      it('waits for a disabled input and an invisible input, then fills them', async () => {
        const o =
          await page(`<input id="a" disabled><input id="b" style="display:none"><script>window.res = {}; for (const id of ['a', 'b']) document.getElementById(id).addEventListener('input', (e) => window.res[id] = e.target.value);
          setTimeout(() => { document.getElementById('a').disabled = false; document.getElementById('b').style.display = 'inline'; }, 400);</script>`);
        await o.ok('fill', { selector: '#a', value: 'some value' });
        await o.ok('fill', { selector: '#b', value: 'other value' });
        expect(await o.eval('window.res')).to.deep.equal({ a: 'some value', b: 'other value' });
      });

      it('fills a position:fixed input; fills back to back; clears with an empty fill', async () => {
        const o = await page(`<input id="f" style="position: fixed;"><input id="one"><input id="two">`);
        await o.ok('fill', { selector: '#f', value: 'some value' });
        await o.ok('fill', { selector: '#one', value: 'first value' });
        await o.ok('fill', { selector: '#two', value: 'second value' });
        expect(await o.eval('["f", "one", "two"].map((id) => document.getElementById(id).value)')).to.deep.equal([
          'some value',
          'first value',
          'second value',
        ]);
        await o.ok('fill', { selector: '#one', value: '' });
        expect(await o.eval('document.getElementById("one").value')).to.equal('');
      });

      it('a fill whose input event navigates away succeeds', async () => {
        const target = h.fixtures.html('/pw-fill-nav', '<p>empty</p>');
        const o = await page(
          `<input id="d" type=date><script>document.getElementById('d').addEventListener('input', () => window.location.href = '${target}')</script>`,
        );
        await o.ok('fill', { selector: '#d', value: '2020-03-02' });
        for (let i = 0; i < 50 && !o.page.url().endsWith('/pw-fill-nav'); i++) await new Promise((r) => setTimeout(r, 100));
        expect(o.page.url()).to.match(/\/pw-fill-nav$/);
      });

      it('fills a contenteditable whose focus handler collapses the selection', async () => {
        const o = await page(
          `<div id="ce" contenteditable="true">initial text</div><script>document.getElementById('ce').addEventListener('focus', () => { const s = getSelection(); if (s.rangeCount > 0) s.collapseToEnd(); });</script>`,
        );
        await o.ok('fill', { selector: '#ce', value: 'some value' });
        expect(await o.eval('document.getElementById("ce").textContent')).to.equal('some value');
      });
    });

    // ---- elementhandle-type / page-keyboard ---------------------------------------------------
    describe('type and press', () => {
      it('type types at the caret of a focused field instead of replacing or appending', async () => {
        const o = await page(`<input id="i" value="hello world">`);
        await o.eval('(() => { const i = document.getElementById("i"); i.focus(); i.setSelectionRange(5, 5); })()');
        await o.ok('type', { selector: '#i', text: ',' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('hello, world');
      });

      it('type into an unfocused field appends at the end', async () => {
        const o = await page(
          `<input id="i" value="abc"><button id="other">o</button><script>document.getElementById('i').addEventListener('keydown', (e) => window.trusted = e.isTrusted)</script>`,
        );
        await o.ok('type', { selector: '#i', text: 'def' });
        expect(await o.eval('window.trusted')).to.equal(trusted);
        expect(await o.eval('document.getElementById("i").value')).to.equal('abcdef');
      });

      it('type sends the US-layout key and code for every character, shifted ones without Shift (as Playwright)', async () => {
        const o = await page(`<textarea id="t"></textarea>${KEY_LOG.script}`);
        await o.ok('type', { selector: '#t', text: 'a!^+~' });
        expect(await o.eval('document.getElementById("t").value')).to.equal('a!^+~');
        const downs = (await KEY_LOG.read(o)).filter((k) => k.startsWith('keydown') && !k.startsWith('keydown|Shift'));
        expect(downs.map((k) => k.split('|').slice(1, 5).join('|'))).to.deep.equal([
          'a|KeyA|0|false',
          '!|Digit1|0|false',
          '^|Digit6|0|false',
          '+|Equal|0|false',
          '~|Backquote|0|false',
        ]);
        expect(
          (await KEY_LOG.read(o)).filter((k) => k.includes('|Shift|')),
          'no Shift key pressed',
        ).to.deep.equal([]);
      });

      it('type of characters outside the layout (emoji, accents) inserts them', async () => {
        const o = await page(`<input id="i">`);
        await o.ok('type', { selector: '#i', text: 'é👹ü' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('é👹ü');
      });

      it('type does not insert what a cancelled keydown blocked', async () => {
        const o = await page(
          `<input id="i"><script>document.getElementById('i').addEventListener('keydown', e => { if (e.key === 'q') e.preventDefault(); });</script>`,
        );
        await o.ok('type', { selector: '#i', text: 'qwq' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('w');
      });

      it('press reports key, code and location of named keys: ShiftRight, ControlRight, NumpadSubtract, Enter', async () => {
        const o = await page(`<input id="i">${KEY_LOG.script}`);
        for (const key of ['ShiftLeft', 'ShiftRight', 'ControlRight', 'AltRight', 'NumpadSubtract', 'Numpad0', 'Enter', 'NumpadEnter'])
          await o.ok('press', { selector: '#i', key });
        const downs = (await KEY_LOG.read(o)).filter((k) => k.startsWith('keydown')).map((k) => k.split('|').slice(1, 4).join('|'));
        expect(downs).to.deep.equal([
          'Shift|ShiftLeft|1',
          'Shift|ShiftRight|2',
          'Control|ControlRight|2',
          'Alt|AltRight|2',
          '-|NumpadSubtract|3',
          'Insert|Numpad0|3',
          'Enter|Enter|0',
          'Enter|NumpadEnter|3',
        ]);
      });

      it('press "+" and "Shift++" produce the plus key; "Shift+~" and "Control+Shift+~" report their modifiers', async () => {
        const o = await page(`<input id="i">${KEY_LOG.script}`);
        await o.ok('press', { selector: '#i', key: '+' });
        await o.ok('press', { selector: '#i', key: 'Shift++' });
        await o.ok('press', { selector: '#i', key: 'Shift+~' });
        await o.ok('press', { selector: '#i', key: 'Control+Shift+~' });
        const downs = (await KEY_LOG.read(o))
          .filter((k) => k.startsWith('keydown') && !/^keydown\|(Shift|Control)\|/.test(k))
          .map((k) => k.split('|').slice(1, 6).join('|'));
        expect(downs).to.deep.equal([
          '+|Equal|0|false|false',
          '+|Equal|0|true|false',
          '~|Backquote|0|true|false',
          '~|Backquote|0|true|true',
        ]);
        expect(await o.eval('document.getElementById("i").value')).to.equal('++~');
      });

      it('press Shift+Digit3 gives "#"; ControlOrMeta+a then Backspace empties the field', async () => {
        const o = await page(`<input id="i" value="">`);
        await o.ok('press', { selector: '#i', key: 'Shift+Digit3' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('#');
        await o.ok('type', { selector: '#i', text: 'more' });
        await o.ok('press', { selector: '#i', key: 'ControlOrMeta+a' });
        await o.ok('press', { selector: '#i', key: 'Backspace' });
        expect(await o.eval('document.getElementById("i").value')).to.equal('');
      });

      it('unknown keys are UNKNOWN_KEY (not INVALID_MESSAGE), Object.prototype names included', async () => {
        const o = await page(`<input id="i">`);
        for (const key of ['NotARealKey', 'toString', 'constructor', '__proto__', 'hasOwnProperty', 'Shift+Nope', 'ё']) {
          const e = await o.fails('press', { selector: '#i', key }, 'UNKNOWN_KEY');
          expect(e.details).to.deep.include({ key });
        }
        expect(await o.eval('document.getElementById("i").value')).to.equal('');
      });

      it('Space and Enter on a focused button click it', async () => {
        const o = await page(`<button id="b" onclick="window.n = (window.n || 0) + 1">B</button>`);
        await o.ok('press', { selector: '#b', key: 'Space' });
        expect(await o.eval('window.n')).to.equal(1);
        await o.ok('press', { selector: '#b', key: 'Enter' });
        expect(await o.eval('window.n')).to.equal(2);
      });

      it('Enter in a single-line input submits its form; in a textarea it inserts a newline', async () => {
        const o = await page(
          `<form id="f" onsubmit="event.preventDefault(); window.submitted = true"><input id="i"></form><textarea id="t"></textarea>`,
        );
        await o.ok('press', { selector: '#i', key: 'Enter' });
        expect(await o.eval('window.submitted')).to.equal(true);
        await o.ok('type', { selector: '#t', text: 'a\nb' });
        expect(await o.eval('document.getElementById("t").value')).to.equal('a\nb');
      });
    });

    // ---- page-check --------------------------------------------------------------------------------
    describe('check', () => {
      it('checks and unchecks a checkbox; a no-op when already in the state', async () => {
        const o = await page(`<input id="c" type="checkbox">`);
        expect(await o.ok('check', { selector: '#c' })).to.deep.include({ checked: true, changed: true });
        expect(await o.ok('check', { selector: '#c' })).to.deep.include({ checked: true, changed: false });
        expect(await o.ok('uncheck', { selector: '#c' })).to.deep.include({ checked: false, changed: true });
        expect(await o.ok('uncheck', { selector: '#c' })).to.deep.include({ changed: false });
      });

      it('checks a radio and a checkbox through its label', async () => {
        const o = await page(
          `<input type="radio" id="r1" name="g" checked><input type="radio" id="r2" name="g"><label><input type="checkbox" id="c"> inside label</label><label for="c2" id="l2">outside</label><input type="checkbox" id="c2">`,
        );
        await o.ok('check', { selector: '#r2' });
        expect(await o.eval('[document.getElementById("r1").checked, document.getElementById("r2").checked]')).to.deep.equal([false, true]);
        await o.ok('check', { selector: '#l2' });
        expect(await o.eval('document.getElementById("c2").checked')).to.equal(true);
      });

      it('checks ARIA checkables: role checkbox, switch, treeitem and menuitemcheckbox with aria-checked', async () => {
        const toggle = `onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') !== 'true')"`;
        const o =
          await page(`<div id="cb" role="checkbox" aria-checked="false" tabindex="0" ${toggle}>CB</div><div id="sw" role="switch" aria-checked="false" tabindex="0" ${toggle}>SW</div>
          <div role="tree"><div id="ti" role="treeitem" aria-checked="false" tabindex="0" ${toggle}>TI</div></div><div role="menu"><div id="mi" role="menuitemcheckbox" aria-checked="true" tabindex="0" ${toggle}>MI</div></div>`);
        for (const id of ['cb', 'sw', 'ti']) {
          await o.ok('check', { selector: `#${id}` });
          expect(await o.eval(`document.getElementById("${id}").getAttribute("aria-checked")`), id).to.equal('true');
        }
        await o.ok('uncheck', { selector: '#mi' });
        expect(await o.eval('document.getElementById("mi").getAttribute("aria-checked")')).to.equal('false');
      });

      it('checks and unchecks every role Playwright reads aria-checked of, a missing aria-checked meaning unchecked', async () => {
        const roles = ['checkbox', 'menuitemcheckbox', 'option', 'radio', 'switch', 'menuitemradio', 'treeitem'];
        const o = await page(
          roles
            .map(
              (r) =>
                `<div role="${r}" id="c-${r}" onclick="this.setAttribute('aria-checked', 'true')">C ${r}</div><div role="${r}" id="u-${r}" aria-checked="true" onclick="this.setAttribute('aria-checked', 'false')">U ${r}</div>`,
            )
            .join(''),
        );
        for (const r of roles) {
          expect(await o.ok('check', { selector: `#c-${r}` }), r).to.deep.include({ checked: true, changed: true });
          expect(await o.eval(`document.getElementById("c-${r}").getAttribute("aria-checked")`), r).to.equal('true');
          expect(await o.ok('uncheck', { selector: `#u-${r}` }), r).to.deep.include({ checked: false, changed: true });
          expect(await o.eval(`document.getElementById("u-${r}").getAttribute("aria-checked")`), r).to.equal('false');
        }
      });

      it('a treeitem without aria-checked is unchecked: uncheck is a no-op, check clicks it and reports a click that changed nothing', async () => {
        const o = await page(
          `<div role="tree"><div role="treeitem" id="ti" tabindex="0" onclick="window.clicks = (window.clicks || 0) + 1">Item</div></div>`,
        );
        expect(await o.ok('uncheck', { selector: '#ti' })).to.deep.include({ checked: false, changed: false });
        const e = await o.fails('check', { selector: '#ti' }, 'OPERATION_FAILED_IN_TARGET');
        expect(e.message).to.match(/still unchecked/);
        expect(await o.eval('window.clicks'), 'the treeitem was clicked').to.equal(1);
      });

      it('checks a checkbox inside a role=button element', async () => {
        const o = await page(`<div role="button"><input type="checkbox" id="c"></div>`);
        await o.ok('check', { selector: '#c' });
        expect(await o.eval('document.getElementById("c").checked')).to.equal(true);
      });

      it('uncheck of a checked radio input is refused, naming the other options', async () => {
        const o = await page(`<input type="radio" name="test" checked id="radio">`);
        await o.fails('uncheck', { selector: '#radio' }, 'OPERATION_FAILED_IN_TARGET');
        expect(await o.eval('document.getElementById("radio").checked')).to.equal(true);
      });

      it('checks a radio and unchecks a role=radio whose page unchecks it; a checked box stays checked', async () => {
        const o = await page(`<input type='radio'>one<input id='two' type='radio'>two<input type='radio'>three
          <div role='radio' id='ar' aria-checked="true">R</div><script>ar.addEventListener('click', () => ar.setAttribute('aria-checked', 'false'));</script><input id="cb" type="checkbox" checked>`);
        await o.ok('check', { selector: '#two' });
        expect(await o.eval('document.getElementById("two").checked')).to.equal(true);
        await o.ok('uncheck', { selector: '#ar' });
        expect(await o.eval('document.getElementById("ar").getAttribute("aria-checked")')).to.equal('false');
        expect(await o.ok('check', { selector: '#cb' })).to.deep.include({ checked: true, changed: false });
        expect(await o.eval('document.getElementById("cb").checked')).to.equal(true);
      });

      it('check on something that is not checkable is NOT_CHECKABLE at once', async () => {
        const o = await page(`<div id="d">Check me</div><input id="t"><div id="rb" role="button">Check me</div>`);
        for (const id of ['d', 't', 'rb']) {
          const t0 = Date.now();
          const e = await o.fails('check', { selector: `#${id}`, timeout_ms: 5000 }, 'NOT_CHECKABLE');
          expect(Date.now() - t0).to.be.lessThan(2500);
          expect(e.details).to.deep.include({ check: 'checkable' });
        }
      });

      it('a click that does not change the state is reported, not a false success', async () => {
        const o = await page(`<input id="c" type="checkbox" onclick="event.preventDefault()">`);
        await o.fails('check', { selector: '#c' }, 'OPERATION_FAILED_IN_TARGET');
        expect(await o.eval('document.getElementById("c").checked')).to.equal(false);
      });
    });

    // ---- elementhandle-scroll-into-view ------------------------------------------------------------
    describe('scroll_into_view', () => {
      it('scrolls a display:contents element by its first box (inside a scroll container, and below the fold)', async () => {
        const o =
          await page(`<style>html, body { margin: 0; padding: 0; width: 100%; height: 100%; } ::-webkit-scrollbar { display: none; } * { scrollbar-width: none; }</style>
          <div id=container style="width:200px;height:200px;overflow:scroll;border:1px solid black;"><div style="margin-top:500px;background:red;"><div style="height:50px;width:100px;background:cyan;"><div id=target style="display:contents">Hello</div></div><div></div></div></div>`);
        expect(await o.ok('scroll_into_view', { selector: '#target' })).to.deep.include({ in_viewport: true });
        expect(Math.abs((await o.eval<number>('document.getElementById("container").scrollTop')) - 350)).to.be.lessThan(1);
        const p = await page(
          `<div style="height:3000px"></div><span id="t" style="display:contents">Far text</span><div style="height:3000px"></div>`,
        );
        expect(await p.ok('scroll_into_view', { selector: '#t' })).to.deep.include({ in_viewport: true });
        expect(await p.eval<number>('scrollY')).to.be.greaterThan(1000);
      });

      it('scrolls each offscreen button into view; works for visibility:hidden and zero-sized elements', async () => {
        const o = await page(
          `<style>button { position: absolute; width: 100px; height: 20px; margin: 0; } body, html { margin: 0; padding: 0; height: 100%; width: 100%; position: relative; } div { position: absolute; left: 0; top: 0; right: 0; bottom: 0; }</style><div>` +
            Array.from({ length: 11 }, (_, i) => `<button id="btn${i}" style="right:${-10 * i}px;top:${25 * i}px">${i}</button>`).join('') +
            `</div><p id="vh" style="visibility:hidden">Hello</p><p id="z" style="height:0">Hello</p>`,
        );
        for (let i = 0; i < 11; i++) {
          expect(await o.eval(`document.getElementById('btn${i}').getBoundingClientRect().right - window.innerWidth`)).to.equal(10 * i);
          await o.ok('scroll_into_view', { selector: `#btn${i}` });
          expect(
            await o.eval<number>(`document.getElementById('btn${i}').getBoundingClientRect().right - window.innerWidth`),
          ).to.be.at.most(0);
          await o.eval('window.scrollTo(0, 0)');
        }
        await o.ok('scroll_into_view', { selector: '#vh' });
        await o.ok('scroll_into_view', { selector: '#z' });
      });

      it('waits for a nested display:none parent to show, and for an animation to stop', async () => {
        // The test, not a page timer, ends each wait: on a loaded machine opening the page and the
        // agent can take longer than any timer, and the action would then find nothing to wait for.
        const pending = async (o: Opened, reveal: string): Promise<void> => {
          let settled: unknown = false;
          const call = o.call('scroll_into_view', { selector: '#d', timeout_ms: 20_000 }).then((r) => (settled = r));
          await new Promise((r) => setTimeout(r, 500));
          expect(settled, `the action waits while the element cannot be scrolled to: ${JSON.stringify(settled)}`).to.equal(false);
          await o.eval(reveal);
          const r = await call;
          expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
          expect(r.outcome_details?.result).to.deep.include({ in_viewport: true });
        };
        const o = await page(`<span id="p" style="display:none"><div id="d">Hello</div></span>`);
        await pending(o, `document.getElementById('p').style.display = 'block'`);
        const p = await page(
          `<style>@keyframes move { from { margin-left: 0; } to { margin-left: 200px; } } div.animated { animation: 2s linear 0s infinite move; }</style><div id="d" class="animated">moving</div>`,
        );
        await pending(p, `document.getElementById('d').classList.remove('animated')`);
      });

      it('scroll on a display:contents element scrolls the container it sits in, never "already at the end" without moving', async () => {
        const o = await page(
          `<div id="box" style="height:100px;overflow:auto"><div id="t" style="display:contents"><div style="height:1000px">inner</div></div></div>`,
        );
        const r = await o.ok('scroll', { selector: '#t', amount: 200 });
        expect(r).to.include({ scroll_y: 200, moved: true });
        expect(await o.eval('document.getElementById("box").scrollTop')).to.equal(200);
      });

      it('an element that left the page is TARGET_ELEMENT_NOT_FOUND (stale), not scrolled', async () => {
        const o = await page(`<button id="b">Hello</button>`);
        const id = await o.id('b');
        await o.eval('document.getElementById("b").remove()');
        const e = await o.fails('scroll_into_view', { element_id: id }, 'TARGET_ELEMENT_NOT_FOUND');
        expect(e.details).to.deep.include({ reason: 'stale' });
      });

      it('a display:none element is waited for, and fails on the visible check when it stays hidden (no success without a scroll)', async () => {
        const o = await page(
          `<div id="d" style="display:none">Hello</div><script>setTimeout(() => document.getElementById('d').style.display = 'block', 400)</script>`,
        );
        expect(await o.ok('scroll_into_view', { selector: '#d' })).to.deep.include({ in_viewport: true });
        const p = await page(`<span style="display:none"><div id="d">Hello</div></span>`);
        const e = await p.fails('scroll_into_view', { selector: '#d', timeout_ms: 400 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(e.details).to.deep.include({ check: 'visible' });
      });
    });

    // ---- page-select-option ------------------------------------------------------------------------
    describe('select_option', () => {
      const SELECT = `<select id="s"><option value="blue">Blue</option><option value="green">Green</option><option value="red">Red</option><option value="x" disabled>Disabled</option><optgroup label="old" disabled><option value="grey">Grey</option></optgroup><option value="Black">black label</option></select>
        <select id="m" multiple><option value="a">A</option><option value="b">B</option><option value="c">C</option></select>
        ${INPUT_CHANGE_LOG.script}`;

      it('selects by value, and a value that matches only a label selects that option (Playwright)', async () => {
        const o = await page(SELECT);
        expect(await o.ok('select_option', { selector: '#s', values: ['green'] })).to.deep.include({ values: ['green'] });
        expect(await o.ok('select_option', { selector: '#s', values: ['Red'] })).to.deep.include({ values: ['red'], labels: ['Red'] });
        expect(await INPUT_CHANGE_LOG.read(o)).to.deep.equal(['input:s', 'change:s', 'input:s', 'change:s']);
      });

      it('selects by label and by index', async () => {
        const o = await page(SELECT);
        expect(await o.ok('select_option', { selector: '#s', labels: ['black label'] })).to.deep.include({ values: ['Black'] });
        expect(await o.ok('select_option', { selector: '#s', option_indexes: [1] })).to.deep.include({ values: ['green'] });
        expect(await o.ok('select_option', { selector: '#m', option_indexes: [0, 2] })).to.deep.include({ values: ['a', 'c'] });
      });

      it('selects several options of a multiple select', async () => {
        const o = await page(SELECT);
        expect(await o.ok('select_option', { selector: '#m', values: ['a', 'b'] })).to.deep.include({ values: ['a', 'b'] });
      });

      it('a disabled option, or one in a disabled optgroup, is OPTION_DISABLED and nothing changes', async () => {
        const o = await page(SELECT);
        let e = await o.fails('select_option', { selector: '#s', values: ['x'] }, 'OPTION_DISABLED');
        expect(e.details).to.deep.include({ requested: 'x' });
        e = await o.fails('select_option', { selector: '#s', labels: ['Grey'] }, 'OPTION_DISABLED');
        expect(e.message).to.match(/optgroup/);
        expect(await o.eval('document.getElementById("s").value')).to.equal('blue');
      });

      it('a missing option or index is OPTION_NOT_FOUND listing the options', async () => {
        const o = await page(SELECT);
        const e = await o.fails('select_option', { selector: '#s', values: ['purple'] }, 'OPTION_NOT_FOUND');
        expect((e.details as { options: unknown[] }).options).to.have.length(6);
        await o.fails('select_option', { selector: '#s', option_indexes: [40] }, 'OPTION_NOT_FOUND');
      });

      it('a target that is not a select fails at once', async () => {
        const o = await page(`<div id="d" style="display:none">hidden div</div><input id="i">`);
        const t0 = Date.now();
        const e = await o.fails('select_option', { selector: '#i', values: ['a'], timeout_ms: 5000 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
        expect(e.details).to.deep.include({ check: 'dropdown' });
        expect(Date.now() - t0).to.be.lessThan(2500);
      });
    });

    // ---- elementhandle-* ----------------------------------------------------------------------------------
    describe('hover and focus', () => {
      it('hover moves the pointer onto the element (mouseover, :hover)', async () => {
        const o = await page(
          `<style>#h:hover{color:rgb(255, 0, 0)}</style><div id="h" style="width:100px;height:40px" onmouseover="window.over = true">hover me</div>`,
        );
        await o.ok('hover', { selector: '#h' });
        expect(await o.eval('window.over')).to.equal(true);
        if (trusted)
          expect(await o.eval('getComputedStyle(document.getElementById("h")).color'), ':hover applies to real pointer input').to.equal(
            'rgb(255, 0, 0)',
          );
      });
    });
  });
}
