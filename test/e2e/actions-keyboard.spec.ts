// Keyboard and text actions: fill (native setter, React-controlled inputs), type (per-key events,
// delay), clear, press (Playwright key syntax and the default actions synthetic events lack),
// send_keys; contenteditable; readonly / not editable / disabled failures.
import path from 'node:path';

import { expect } from 'chai';
import { build } from 'esbuild';

import { REPO_ROOT } from '../harness/browser';
import { type Harness, useHarness } from '../harness/harness';
import { EVENT_LOG, open, quietSettle } from './actions.helpers';

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

  it('type fires keydown, keypress, beforeinput, input, keyup per character with key/code/keyCode', async () => {
    const o = await open(
      h,
      `<input id="t" value="x">${EVENT_LOG}<script>window.keys=[];document.getElementById('t').addEventListener('keydown', e => keys.push([e.key, e.code, e.keyCode, e.shiftKey]));</script>`,
    );
    await o.ok('type', { selector: '#t', text: 'aB!' });
    expect(await o.eval('document.getElementById("t").value')).to.equal('xaB!');
    // "B" and "!" are typed with Shift held down first, as on a real US keyboard.
    expect(await o.eval('window.keys')).to.deep.equal([
      ['a', 'KeyA', 65, false],
      ['Shift', 'ShiftLeft', 16, true],
      ['B', 'KeyB', 66, true],
      ['Shift', 'ShiftLeft', 16, true],
      ['!', 'Digit1', 49, true],
    ]);
    const log = await o.eval<string[]>('window.log.filter(e => /^(key|before|input)/.test(e))');
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
      `<input id="d" type="date"><input id="c" type="color"><input id="r" type="range" min="0" max="10">${EVENT_LOG}`,
    );
    await o.ok('fill', { selector: '#d', value: '2024-05-01' });
    await o.ok('fill', { selector: '#c', value: '#ff0000' });
    await o.ok('fill', { selector: '#r', value: '7' });
    expect(await o.eval('[d.value, c.value, r.value]')).to.deep.equal(['2024-05-01', '#ff0000', '7']);
    expect(await o.eval('window.log.filter(e => /^(input|change):d$/.test(e))')).to.deep.equal(['input:d', 'change:d']);
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
});
