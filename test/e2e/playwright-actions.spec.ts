// Behaviours of Playwright's public action tests (tests/page/page-click, page-fill, page-check,
// page-select-option, page-keyboard, elementhandle-*), written as our own cases and run in real
// Chromium through the protocol (bridge -> extension -> page), each suite twice: with synthetic
// input and with trusted input (chrome.debugger Input.*). Assertions are about what the page sees
// (values, events, key/code/location, checked state), never about which route was taken, except
// where a case is about trusted input itself.
import { expect } from 'chai';

import { type Harness, startHarness } from '../harness/harness';
import { open, type Opened, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

const KEY_LOG = `<script>
  window.keys = [];
  for (const t of ['keydown', 'keypress', 'keyup'])
    document.addEventListener(t, (e) => window.keys.push([t, e.key, e.code, e.location, e.shiftKey, e.ctrlKey, e.altKey, e.metaKey].join('|')), true);
</script>`;

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
    const page = (body: string): Promise<Opened> => open(h, body);

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
        const o = await page(
          `<button id="b">B</button><script>window.ev=[];for (const t of ['click','dblclick','contextmenu']) document.getElementById('b').addEventListener(t, () => ev.push(t));</script>`,
        );
        await o.ok('double_click', { selector: '#b' });
        expect(await o.eval('window.ev')).to.deep.equal(['click', 'click', 'dblclick']);
        await o.eval('window.ev = []');
        await o.ok('click', { selector: '#b', button: 'right' });
        expect(await o.eval('window.ev')).to.deep.equal(['contextmenu']);
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
        const o = await page(
          `${cases.map(([t]) => `<input id="i-${t}" type="${t}">`).join('')}<script>window.ev=[];for (const t of ['input','change']) document.addEventListener(t, e => ev.push(t + ':' + e.target.id));</script>`,
        );
        for (const [t, v] of cases) {
          await o.ok('fill', { selector: `#i-${t}`, value: v });
          expect(await o.eval(`document.getElementById("i-${t}").value`), t).to.equal(v);
        }
        const ev = await o.eval<string[]>('window.ev');
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
        const o = await page(`<textarea id="t"></textarea>${KEY_LOG}`);
        await o.ok('type', { selector: '#t', text: 'a!^+~' });
        expect(await o.eval('document.getElementById("t").value')).to.equal('a!^+~');
        const downs = (await o.eval<string[]>('window.keys')).filter((k) => k.startsWith('keydown') && !k.startsWith('keydown|Shift'));
        expect(downs.map((k) => k.split('|').slice(1, 5).join('|'))).to.deep.equal([
          'a|KeyA|0|false',
          '!|Digit1|0|false',
          '^|Digit6|0|false',
          '+|Equal|0|false',
          '~|Backquote|0|false',
        ]);
        expect(
          (await o.eval<string[]>('window.keys')).filter((k) => k.includes('|Shift|')),
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
        const o = await page(`<input id="i">${KEY_LOG}`);
        for (const key of ['ShiftLeft', 'ShiftRight', 'ControlRight', 'AltRight', 'NumpadSubtract', 'Numpad0', 'Enter', 'NumpadEnter'])
          await o.ok('press', { selector: '#i', key });
        const downs = (await o.eval<string[]>('window.keys'))
          .filter((k) => k.startsWith('keydown'))
          .map((k) => k.split('|').slice(1, 4).join('|'));
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
        const o = await page(`<input id="i">${KEY_LOG}`);
        await o.ok('press', { selector: '#i', key: '+' });
        await o.ok('press', { selector: '#i', key: 'Shift++' });
        await o.ok('press', { selector: '#i', key: 'Shift+~' });
        await o.ok('press', { selector: '#i', key: 'Control+Shift+~' });
        const downs = (await o.eval<string[]>('window.keys'))
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

      it('check on something that is not checkable is NOT_CHECKABLE at once', async () => {
        const o = await page(`<div id="d">Check me</div><input id="t"><div id="ti" role="treeitem">no state</div>`);
        for (const id of ['d', 't', 'ti']) {
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

    // ---- page-select-option ------------------------------------------------------------------------
    describe('select_option', () => {
      const SELECT = `<select id="s"><option value="blue">Blue</option><option value="green">Green</option><option value="red">Red</option><option value="x" disabled>Disabled</option><optgroup label="old" disabled><option value="grey">Grey</option></optgroup><option value="Black">black label</option></select>
        <select id="m" multiple><option value="a">A</option><option value="b">B</option><option value="c">C</option></select>
        <script>window.ev=[];for (const t of ['input','change']) document.addEventListener(t, e => ev.push(t + ':' + e.target.id));</script>`;

      it('selects by value, and a value that matches only a label selects that option (Playwright)', async () => {
        const o = await page(SELECT);
        expect(await o.ok('select_option', { selector: '#s', values: ['green'] })).to.deep.include({ values: ['green'] });
        expect(await o.ok('select_option', { selector: '#s', values: ['Red'] })).to.deep.include({ values: ['red'], labels: ['Red'] });
        expect(await o.eval('window.ev')).to.deep.equal(['input:s', 'change:s', 'input:s', 'change:s']);
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
