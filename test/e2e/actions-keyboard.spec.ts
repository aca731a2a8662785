// Keyboard and text actions: fill (native setter, React-controlled inputs), type (per-key events,
// delay), clear, press (Playwright key syntax and the default actions synthetic events lack),
// send_keys; contenteditable; readonly / not editable / disabled failures.
import path from 'node:path';

import { expect } from 'chai';
import { build } from 'esbuild';

import { REPO_ROOT } from '../harness/browser';
import { type Harness, useHarness } from '../harness/harness';
import { EVENT_LOG, eventLog, open, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

/** Records "type key code keyCode charCode location [modifiers]" for key events, like Playwright's input/keyboard.html. */
const KEY_RESULT = eventLog({
  name: 'kres',
  types: ['keydown', 'keypress', 'keyup'],
  entry:
    "t + ' ' + e.key + ' ' + e.code + ' ' + e.keyCode + ' ' + e.charCode + ' ' + e.location + " +
    "' [' + ['Alt', 'Control', 'Meta', 'Shift'].filter((m) => e.getModifierState(m)).join(' ') + ']'",
});

describe('e2e actions: keyboard and text', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });
  before(async function () {
    // Real react + react-dom from node_modules, bundled for the browser.
    const bundle = await build({
      entryPoints: [path.join(REPO_ROOT, 'test/fixtures/react/controlled-form.jsx')],
      bundle: true,
      write: false,
      format: 'iife',
      minify: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    h.fixtures.route('/react-form.js', { body: Buffer.from(bundle.outputFiles[0]!.contents), contentType: 'text/javascript' });
  });

  it('fill replaces the value, fires input and change, and React-controlled inputs update', async () => {
    const o = await open(h, `<div id="root"></div><script src="/react-form.js"></script>`);
    await o.page.waitForSelector('#name');
    let r = await o.ok('fill', { role: 'textbox', name: 'Name', value: 'ada' });
    expect(r['value'], 'React upper-cases through its onChange').to.equal('ADA');
    await o.ok('fill', { selector: '#bio', value: 'mathematician' });
    await o.ok('select_option', { selector: '#color', labels: ['Blue'] });
    await o.ok('check', { role: 'checkbox', name: 'I agree' });
    expect(await o.eval('document.getElementById("echo").textContent')).to.equal('name=ADA;bio=mathematician;color=blue;agree=true');
    // type appends key by key and React sees each one.
    r = await o.ok('type', { selector: '#name', text: ' l' });
    expect(r['value']).to.equal('ADA L');
    // Enter in the single-line input submits the React form (implicit submission).
    await o.ok('press', { selector: '#name', key: 'Enter' });
    expect(JSON.parse(await o.eval<string>('document.getElementById("submitted").textContent'))).to.deep.equal({
      name: 'ADA L',
      bio: 'mathematician',
      color: 'blue',
      agree: true,
    });
  });

  it('type fires keydown, keypress, beforeinput, input, keyup per character with key/code/keyCode, no Shift for shifted characters', async () => {
    const keys = eventLog<unknown[]>({ name: 'keys', on: ['t'], types: ['keydown'], entry: '[e.key, e.code, e.keyCode, e.shiftKey]' });
    const o = await open(h, `<input id="t" value="x">${EVENT_LOG.script}${keys.script}`);
    await o.ok('type', { selector: '#t', text: 'aB!' });
    expect(await o.eval('document.getElementById("t").value')).to.equal('xaB!');
    // Playwright's keyboard.type sends "B" and "!" as their keys with no modifier: no Shift keydown.
    expect(await keys.read(o)).to.deep.equal([
      ['a', 'KeyA', 65, false],
      ['B', 'KeyB', 66, false],
      ['!', 'Digit1', 49, false],
    ]);
    const log = (await EVENT_LOG.read(o)).filter((e) => /^(key|before|input)/.test(e));
    expect(log.slice(0, 5)).to.deep.equal(['keydown:t', 'keypress:t', 'beforeinput:t', 'input:t', 'keyup:t']);
    expect(log.filter((e) => e === 'input:t')).to.have.length(3);
  });

  it('type honours delay_ms and a page that cancels keydown', async () => {
    const o = await open(
      h,
      `<input id="t"><script>document.getElementById('t').addEventListener('keydown', e => { if (e.key === 'x') e.preventDefault(); });</script>`,
    );
    const t0 = Date.now();
    await o.ok('type', { selector: '#t', text: 'axbx', delay_ms: 60 });
    expect(Date.now() - t0).to.be.greaterThan(180);
    expect(await o.eval('document.getElementById("t").value')).to.equal('ab');
  });

  it('clear empties; readonly, disabled and non-text targets fail with the failing check', async () => {
    const o = await open(
      h,
      `<input id="v" value="old"><input id="ro" readonly value="fixed"><input id="dis" disabled><button id="btn">b</button><input id="num" type="number">`,
    );
    await o.ok('clear', { selector: '#v' });
    expect(await o.eval('document.getElementById("v").value')).to.equal('');
    const ro = await o.fails('fill', { selector: '#ro', value: 'x', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(ro.details).to.include({ check: 'editable', reason: 'readonly' });
    const dis = await o.fails('type', { selector: '#dis', text: 'x', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(dis.details).to.include({ check: 'enabled' });
    const btn = await o.fails('fill', { selector: '#btn', value: 'x', timeout_ms: 3000 }, 'NOT_FILLABLE');
    expect(btn.details).to.include({ check: 'editable', element_type: 'button' });
    await o.fails('fill', { selector: '#num', value: 'abc' }, 'INVALID_VALUE');
    await o.ok('fill', { selector: '#num', value: '42' });
    expect(await o.eval('document.getElementById("num").value')).to.equal('42');
    expect(await o.eval('document.getElementById("ro").value')).to.equal('fixed');
  });

  it('fill sets date, color and range inputs directly, with input and change', async () => {
    const o = await open(
      h,
      `<input id="d" type="date"><input id="c" type="color"><input id="r" type="range" min="0" max="10">${EVENT_LOG.script}`,
    );
    await o.ok('fill', { selector: '#d', value: '2024-05-01' });
    await o.ok('fill', { selector: '#c', value: '#ff0000' });
    await o.ok('fill', { selector: '#r', value: '7' });
    expect(await o.eval('[d.value, c.value, r.value]')).to.deep.equal(['2024-05-01', '#ff0000', '7']);
    expect((await EVENT_LOG.read(o)).filter((e) => /^(input|change):d$/.test(e))).to.deep.equal(['input:d', 'change:d']);
    const bad = await o.fails('fill', { selector: '#d', value: 'tomorrow' }, 'INVALID_VALUE');
    expect(bad.message).to.match(/YYYY-MM-DD/);
  });

  it('contenteditable: fill replaces, type appends, Enter makes a new paragraph, Backspace deletes', async () => {
    const o = await open(
      h,
      `<div id="ed" contenteditable="true" style="min-height:40px;border:1px solid">old text</div><script>window.inputs=0;document.getElementById('ed').addEventListener('input', () => inputs++);</script>`,
    );
    await o.ok('fill', { selector: '#ed', value: 'Hello' });
    expect(await o.eval('document.getElementById("ed").innerText')).to.equal('Hello');
    await o.ok('type', { selector: '#ed', text: ' world' });
    expect(await o.eval('document.getElementById("ed").innerText')).to.equal('Hello world');
    await o.ok('press', { selector: '#ed', key: 'Backspace' });
    expect(await o.eval('document.getElementById("ed").innerText')).to.equal('Hello worl');
    await o.ok('press', { key: 'Enter' });
    await o.ok('type', { selector: '#ed', text: 'line2' });
    expect(await o.eval('document.getElementById("ed").innerText')).to.match(/^Hello worl\n+line2$/);
    expect(await o.eval<number>('window.inputs')).to.be.greaterThan(5);
  });

  it('press: Tab and Shift+Tab move focus in tab order (positive tabindex first, skipping disabled)', async () => {
    const o = await open(
      h,
      `<input id="a"><button id="b">b</button><input id="c" disabled><a id="d" href="#x">d</a><input id="e" tabindex="-1"><input id="p" tabindex="2"><input id="q" tabindex="1">`,
    );
    await o.ok('focus', { selector: '#a' });
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await o.ok('press', { key: 'Tab' });
      order.push(r['focused_element'] as string);
    }
    expect(order).to.deep.equal(['button#b', 'a#d', 'input#q']);
    const back = await o.ok('press', { key: 'Shift+Tab' });
    expect(back['focused_element']).to.equal('a#d');
  });

  it('press: Control+A selects all, Backspace/Delete edit, arrows move the caret, Enter clicks a focused button', async () => {
    const o = await open(h, `<input id="t" value="hello"><button id="go" onclick="window.went=true">Go</button>`);
    await o.ok('focus', { selector: '#t' });
    await o.ok('press', { key: 'End' });
    await o.ok('press', { key: 'ArrowLeft' });
    await o.ok('press', { key: 'Backspace' });
    expect(await o.eval('document.getElementById("t").value')).to.equal('helo');
    await o.ok('press', { key: 'Home' });
    await o.ok('press', { key: 'Delete' });
    expect(await o.eval('document.getElementById("t").value')).to.equal('elo');
    await o.ok('press', { key: 'Control+A' });
    expect(await o.eval('[document.getElementById("t").selectionStart, document.getElementById("t").selectionEnd]')).to.deep.equal([0, 3]);
    await o.ok('press', { key: 'x' });
    expect(await o.eval('document.getElementById("t").value')).to.equal('x');
    await o.ok('press', { selector: '#go', key: 'Enter' });
    expect(await o.eval('window.went')).to.equal(true);
    const bad = await o.fails('press', { key: 'Hyper+Q' }, 'UNKNOWN_KEY');
    expect(bad.message).to.match(/Unknown modifier/);
  });

  it('press Enter: submits a form without a submit button via requestSubmit, newline in a textarea; keydown handlers see the chord', async () => {
    const o = await open(
      h,
      `<form id="f" onsubmit="event.preventDefault(); window.submitted=(window.submitted||0)+1"><input id="q" name="q"></form><textarea id="ta">a</textarea>
      <script>window.chords=[];document.addEventListener('keydown', e => chords.push((e.ctrlKey?'C+':'')+(e.shiftKey?'S+':'')+e.key));</script>`,
    );
    await o.ok('press', { selector: '#q', key: 'Enter' });
    expect(await o.eval('window.submitted')).to.equal(1);
    await o.ok('type', { selector: '#ta', text: '\nb' });
    expect(await o.eval('document.getElementById("ta").value')).to.equal('a\nb');
    await o.ok('press', { key: 'Control+Shift+K' });
    expect(await o.eval('window.chords.slice(-3)')).to.deep.equal(['C+Control', 'C+S+Shift', 'C+S+K']);
  });

  it('press: Space toggles a focused checkbox, arrows step a focused select (with change)', async () => {
    const o = await open(
      h,
      `<input type="checkbox" id="cb"><select id="s" onchange="window.changed=this.value"><option value="a">A</option><option value="b" disabled>B</option><option value="c">C</option></select>`,
    );
    await o.ok('press', { selector: '#cb', key: ' ' });
    expect(await o.eval('document.getElementById("cb").checked')).to.equal(true);
    await o.ok('press', { selector: '#cb', key: 'Space' });
    expect(await o.eval('document.getElementById("cb").checked')).to.equal(false);
    await o.ok('press', { selector: '#s', key: 'ArrowDown' });
    expect(await o.eval('[document.getElementById("s").value, window.changed]')).to.deep.equal(['c', 'c']);
    await o.ok('press', { selector: '#s', key: 'Home' });
    expect(await o.eval('document.getElementById("s").value')).to.equal('a');
  });

  it('send_keys: a chord is pressed; a string that is not a key is typed character by character', async () => {
    const o = await open(h, `<input id="s">`);
    await o.ok('focus', { selector: '#s' });
    let r = await o.ok('send_keys', { keys: 'hello world' });
    expect(r['keys']).to.have.length(11);
    expect(await o.eval('document.getElementById("s").value')).to.equal('hello world');
    r = await o.ok('send_keys', { keys: 'Control+a' });
    expect(r['keys']).to.deep.equal(['Control+a']);
    await o.ok('send_keys', { keys: 'Backspace' });
    expect(await o.eval('document.getElementById("s").value')).to.equal('');
    const res = await o.call('send_keys', { keys: 'Enter' });
    expect(res.outcome_details?.message).to.equal('Sent keys: Enter');
  });
  // Keyboard input as Playwright sends it on Chromium (page-keyboard, elementhandle-press,
  // elementhandle-type, page-focus), the same with synthetic events and with trusted input.
  for (const trusted of [false, true]) {
    describe(`Playwright's keyboard (trusted input ${trusted ? 'on' : 'off'})`, () => {
      before(() => setSettings(h, { trusted_input: trusted }));
      after(() => clearSettings(h, ['trusted_input']));
      const value = (o: { eval<T>(s: string): Promise<T> }, sel: string) =>
        o.eval<string>(`(() => { const e = document.querySelector(${JSON.stringify(sel)}); return e.value ?? e.textContent; })()`);

      it('type "!", "^", "A" and "~" sends each as its own key with no modifier: no Shift keydown, shiftKey false', async () => {
        const o = await open(h, `<textarea id="t"></textarea>${KEY_RESULT.script}`);
        await o.ok('type', { selector: '#t', text: '!^A~' });
        expect(await value(o, '#t')).to.equal('!^A~');
        expect(await KEY_RESULT.read(o)).to.deep.equal([
          'keydown ! Digit1 49 0 0 []',
          'keypress ! Digit1 33 33 0 []',
          'keyup ! Digit1 49 0 0 []',
          'keydown ^ Digit6 54 0 0 []',
          'keypress ^ Digit6 94 94 0 []',
          'keyup ^ Digit6 54 0 0 []',
          'keydown A KeyA 65 0 0 []',
          'keypress A KeyA 65 65 0 []',
          'keyup A KeyA 65 0 0 []',
          'keydown ~ Backquote 192 0 0 []',
          'keypress ~ Backquote 126 126 0 []',
          'keyup ~ Backquote 192 0 0 []',
        ]);
      });

      it('press "Shift+!" holds Shift around "!"; Control+! and Alt+! give no keypress; Control+Alt+; reports both modifiers', async () => {
        const o = await open(h, `<input id="i">${KEY_RESULT.script}`);
        await o.ok('press', { selector: '#i', key: 'Shift+!' });
        expect(await KEY_RESULT.take(o)).to.deep.equal([
          'keydown Shift ShiftLeft 16 0 1 [Shift]',
          'keydown ! Digit1 49 0 0 [Shift]',
          'keypress ! Digit1 33 33 0 [Shift]',
          'keyup ! Digit1 49 0 0 [Shift]',
          'keyup Shift ShiftLeft 16 0 1 []',
        ]);
        await o.ok('press', { selector: '#i', key: 'Control+!' });
        await o.ok('press', { selector: '#i', key: 'Alt+!' });
        expect((await KEY_RESULT.take(o)).filter((k) => k.startsWith('keypress'))).to.deep.equal([]);
        await o.ok('press', { selector: '#i', key: 'Control+Alt+;' });
        expect(await KEY_RESULT.take(o)).to.deep.equal([
          'keydown Control ControlLeft 17 0 1 [Control]',
          'keydown Alt AltLeft 18 0 1 [Alt Control]',
          'keydown ; Semicolon 186 0 0 [Alt Control]',
          'keyup ; Semicolon 186 0 0 [Alt Control]',
          'keyup Alt AltLeft 18 0 1 [Control]',
          'keyup Control ControlLeft 17 0 1 []',
        ]);
        await o.ok('press', { selector: '#i', key: 'Escape' });
        await o.ok('press', { selector: '#i', key: 'Meta' });
        expect(await KEY_RESULT.take(o)).to.deep.equal([
          'keydown Escape Escape 27 0 0 []',
          'keyup Escape Escape 27 0 0 []',
          'keydown Meta MetaLeft 91 0 1 [Meta]',
          'keyup Meta MetaLeft 91 0 1 []',
        ]);
        expect(await value(o, '#i'), 'no modifier chord typed anything').to.equal('!');
      });

      it('key events are delivered like real ones: keydown microtasks run before keypress, its setTimeout(0) after the edit and before keyup', async () => {
        const o = await open(
          h,
          `<input id="i"><script>
            window.klog = [];
            const i = document.getElementById('i');
            for (const t of ['keydown', 'keypress', 'input', 'keyup'])
              i.addEventListener(t, () => {
                klog.push(t);
                if (t !== 'keydown') return;
                queueMicrotask(() => klog.push('microtask-keydown'));
                setTimeout(() => klog.push('timeout-keydown:' + i.value), 0);
              });
          </script>`,
        );
        await o.ok('press', { selector: '#i', key: 'a' });
        await o.ok('type', { selector: '#i', text: 'bc' });
        const log = await o.eval<string[]>('window.klog');
        const press = ['keydown', 'microtask-keydown', 'keypress', 'input'];
        expect(log.filter((e) => !e.startsWith('timeout') && e !== 'keyup')).to.deep.equal([...press, ...press, ...press]);
        // The timer from keydown sees its character already in (it never runs between keydown and
        // keypress); with real keys sent back to back it may also see the next ones.
        const timeouts = log.filter((e) => e.startsWith('timeout'));
        expect(timeouts).to.have.length(3);
        ['a', 'ab', 'abc'].forEach((v, n) => expect(timeouts[n]).to.match(new RegExp(`^timeout-keydown:${v}`)));
        // Synthetic keys leave a task before keyup, as a person's key press does; real keys sent back
        // to back may not (Chromium runs input ahead of timers).
        if (!trusted) expect(log).to.deep.equal(['a', 'ab', 'abc'].flatMap((v) => [...press, `timeout-keydown:${v}`, 'keyup']));
      });

      it('a key press fires keydown, keypress, beforeinput, textInput, input, keyup; a cancelled textInput types nothing; PageDown and Home scroll the page', async () => {
        const tlog = eventLog({
          name: 'tlog',
          on: ['i'],
          types: ['keydown', 'keypress', 'beforeinput', 'textInput', 'input', 'keyup'],
          entry: 't',
        });
        const o = await open(h, `<input id="i"><div style="height:4000px">tall</div>${tlog.script}`);
        await o.ok('press', { selector: '#i', key: 'f' });
        expect(await tlog.read(o)).to.deep.equal(['keydown', 'keypress', 'beforeinput', 'textInput', 'input', 'keyup']);
        await o.eval(`document.getElementById('i').addEventListener('textInput', (e) => e.preventDefault())`);
        await o.ok('type', { selector: '#i', text: 'zz' });
        expect(await value(o, '#i')).to.equal('f');
        await o.eval('document.activeElement.blur()');
        await o.ok('press', { key: 'PageDown' });
        await o.page.waitForFunction('scrollY > 100', { timeout: 3000 });
        await o.ok('press', { key: 'Home' });
        await o.page.waitForFunction('scrollY === 0', { timeout: 3000 });
      });

      it('type: all kinds of characters, a newline, and keys a page cancels are not typed', async () => {
        const o = await open(
          h,
          `<textarea id="t"></textarea><textarea id="c"></textarea><script>
            document.getElementById('c').addEventListener('keydown', (e) => { e.stopPropagation(); e.stopImmediatePropagation(); if (e.key === 'l' || e.key === 'o') e.preventDefault(); });
          </script>`,
        );
        const text = 'This text goes onto two lines.\nThis character is 嗨.';
        await o.ok('type', { selector: '#t', text });
        expect(await value(o, '#t')).to.equal(text);
        await o.ok('type', { selector: '#c', text: 'Hello World!' });
        expect(await value(o, '#c')).to.equal('He Wrd!');
      });

      it('press: arrows move the caret, Shift+ArrowLeft selects, Backspace deletes the selection', async () => {
        const o = await open(h, `<textarea id="t"></textarea>`);
        await o.ok('type', { selector: '#t', text: 'Hello World!' });
        for (let i = 0; i < 'World!'.length; i++) await o.ok('press', { key: 'ArrowLeft' });
        await o.ok('type', { selector: '#t', text: 'inserted ' });
        expect(await value(o, '#t')).to.equal('Hello inserted World!');
        for (let i = 0; i < 'inserted '.length; i++) await o.ok('press', { key: 'Shift+ArrowLeft' });
        await o.ok('press', { key: 'Backspace' });
        expect(await value(o, '#t')).to.equal('Hello World!');
      });

      it('a page can prevent select-all; Meta alone inserts nothing', async () => {
        const o = await open(h, `<textarea id="t"></textarea><input id="m" value="hello world">`);
        await o.ok('type', { selector: '#t', text: 'some text' });
        await o.eval(
          `document.getElementById('t').addEventListener('keydown', (e) => { if (e.key === 'a' && (e.metaKey || e.ctrlKey)) e.preventDefault(); })`,
        );
        await o.ok('press', { key: 'ControlOrMeta+a' });
        await o.ok('press', { key: 'Backspace' });
        expect(await value(o, '#t')).to.equal('some tex');
        await o.ok('press', { selector: '#m', key: 'Meta' });
        expect(await value(o, '#m')).to.equal('hello world');
      });

      it('press and type keep the caret and selection of a focused field (elementhandle-press/type)', async () => {
        const o = await open(h, `<input id="p" value="hello"><input id="t" value="hello"><input id="e" type="text">`);
        await o.eval('(() => { const i = document.getElementById("p"); i.focus(); i.setSelectionRange(2, 4); })()');
        await o.ok('press', { selector: '#p', key: 'w' });
        expect(await value(o, '#p')).to.equal('hewo');
        await o.eval('(() => { const i = document.getElementById("t"); i.focus(); i.setSelectionRange(2, 4); })()');
        await o.ok('type', { selector: '#t', text: 'world' });
        expect(await value(o, '#t')).to.equal('heworldo');
        await o.ok('press', { selector: '#e', key: 'h' });
        await o.ok('type', { selector: '#e', text: 'ello' });
        expect(await value(o, '#e')).to.equal('hello');
      });

      it('type repeatedly into inputs and contenteditables inside a shadow root', async () => {
        const o = await open(
          h,
          `<shadow-element></shadow-element><script>
            customElements.define('shadow-element', class extends HTMLElement {
              connectedCallback() {
                this.attachShadow({ mode: 'open' }).innerHTML = '<div class=editor contenteditable id=foo style="min-height:20px"></div><hr><section><div class=editor contenteditable id=bar style="min-height:20px"></div></section><input id=fi><section><input id=bi></section>';
              }
            });
          </script>`,
        );
        const inShadow = (id: string) => `document.querySelector("shadow-element").shadowRoot.getElementById("${id}")`;
        await o.ok('type', { selector: '#foo', text: 'This is the first box.' });
        await o.ok('type', { selector: '#bar', text: 'This is the second box.' });
        await o.ok('type', { selector: '#fi', text: 'First input.' });
        await o.ok('type', { selector: '#bi', text: 'Second input.' });
        expect(
          await o.eval(
            `[${inShadow('foo')}.textContent, ${inShadow('bar')}.textContent, ${inShadow('fi')}.value, ${inShadow('bi')}.value]`,
          ),
        ).to.deep.equal(['This is the first box.', 'This is the second box.', 'First input.', 'Second input.']);
      });

      it('focus traversal: type, Tab, type fills two fields; Tab and Shift+Tab walk all inputs (page-focus)', async () => {
        const o = await open(
          h,
          `<input id="i1"><input id="i2"><input value="3" id="i3"><script>document.getElementById('i2').addEventListener('focus', () => window.focused2 = true)</script>`,
        );
        await o.ok('type', { selector: '#i1', text: 'First' });
        await o.ok('press', { key: 'Tab' });
        await o.ok('type', { selector: '#i2', text: 'Last' });
        expect(await o.eval('[i1.value, i2.value, window.focused2]')).to.deep.equal(['First', 'Last', true]);
        await o.ok('press', { key: 'Tab' });
        expect(await o.eval('document.activeElement.id')).to.equal('i3');
        await o.ok('press', { key: 'Shift+Tab' });
        await o.ok('press', { key: 'Shift+Tab' });
        expect(await o.eval('document.activeElement.id')).to.equal('i1');
      });

      it('focus: emits focus and blur; focusing a non-focusable element keeps the old focus; type into it does not move focus', async () => {
        const focusLog = eventLog({ name: 'eventLog', on: ['focusable', 'plain', 'd2'], types: ['focus', 'blur'], entry: "t + ' ' + id" });
        const o = await open(
          h,
          `<div id="focusable" tabindex="0">focusable</div><div id="plain">not focusable</div><div id="d2" tabindex="0">DIV2</div>${focusLog.script}`,
        );
        await o.ok('click', { selector: '#focusable' });
        expect(await o.eval('document.activeElement.id')).to.equal('focusable');
        await o.call('focus', { selector: '#plain' });
        expect(await o.eval('document.activeElement.id')).to.equal('focusable');
        await o.call('type', { selector: '#plain', text: 'foo', timeout_ms: 300 });
        expect(await o.eval('document.activeElement.id')).to.equal('focusable');
        await o.ok('focus', { selector: '#d2' });
        expect(await focusLog.read(o)).to.deep.equal(['focus focusable', 'blur focusable', 'focus d2']);
      });
    });
  }
});
