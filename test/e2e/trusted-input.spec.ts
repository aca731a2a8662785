// Trusted input (chrome.storage.local trusted_input = true): hover, fill and type through
// chrome.debugger Input.* (event.isTrusted), the debugger detached after each action, and pointer
// actions inside an iframe landing on the right element (the frame's offset added to its point).
import { expect } from 'chai';

import { type Harness, useHarness } from '../harness/harness';
import { open, quietSettle } from './actions.helpers';
import { clearSettings, debuggerAttached, setSettings } from './worker-actions.helpers';

/** Records "type:id:trusted" for the events a trusted-input site would look at. */
const TRUST_LOG = `<script>
  window.tlog = [];
  for (const t of ['mouseover', 'mousemove', 'click', 'keydown', 'beforeinput', 'input'])
    document.addEventListener(t, (e) => window.tlog.push(t + ':' + ((e.target && e.target.id) || '?') + ':' + e.isTrusted), true);
</script>`;

describe('e2e actions: trusted input', function () {
  let h: Harness;
  useHarness((started) => (h = started), {
    prepare: async (started) => {
      await quietSettle(started);
      await setSettings(started, { trusted_input: true });
    },
    cleanup: (started) => clearSettings(started, ['trusted_input']),
  });

  it('hover, fill and type are real input; fill replaces the value; the debugger is detached after', async () => {
    const o = await open(
      h,
      `<div id="menu" style="width:100px;height:30px">Menu</div><input id="f" value="old text"><textarea id="t"></textarea>${TRUST_LOG}`,
    );
    const hovered = await o.ok('hover', { selector: '#menu' });
    expect(hovered).to.have.property('element_id');
    const log = () => o.eval<string[]>('window.tlog.splice(0)');
    const hoverLog = await log();
    expect(hoverLog).to.include('mouseover:menu:true');
    expect(
      hoverLog.filter((e) => e.endsWith(':false')),
      'no synthetic event before the real one',
    ).to.deep.equal([]);

    const filled = await o.ok('fill', { selector: '#f', value: 'new value' });
    expect(filled['value']).to.equal('new value');
    expect(await o.eval('document.getElementById("f").value')).to.equal('new value');
    const fillLog = await log();
    expect(fillLog).to.include('input:f:true');
    expect(fillLog.filter((e) => e.endsWith(':false'))).to.deep.equal([]);

    const typed = await o.ok('type', { selector: '#t', text: 'ab\ncd' });
    expect(typed['value']).to.equal('ab\ncd');
    const typeLog = await log();
    expect(typeLog.filter((e) => e.startsWith('keydown:t:true'))).to.have.length(5);
    expect(typeLog.filter((e) => e.endsWith(':false'))).to.deep.equal([]);
    expect(await debuggerAttached(h, o.tabId), 'the debugger is detached right after the action').to.equal(false);
  });

  it('fill keeps the editable check: a readonly field fails with the editable check, nothing typed', async () => {
    const o = await open(h, `<input id="ro" readonly value="fixed">`);
    const err = await o.fails('fill', { selector: '#ro', value: 'x', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(err.details).to.include({ check: 'editable' });
    expect(await o.eval('document.getElementById("ro").value')).to.equal('fixed');
  });

  it('click and hover inside an offset iframe land on the element (frame offset added), with frame-prefixed ids', async () => {
    h.fixtures.html(
      '/trusted-frame',
      `<div style="height:40px"></div><button id="a" style="margin-left:150px">A</button> <button id="b">B</button><input id="fi">
      <script>for (const id of ['a', 'b']) document.getElementById(id).addEventListener('click', (e) => document.body.dataset.clicked = id + ':' + e.isTrusted);
      document.getElementById('b').addEventListener('mouseover', (e) => document.body.dataset.hovered = 'b:' + e.isTrusted);</script>`,
    );
    const o = await open(
      h,
      `<div style="height:180px">spacer</div><iframe src="/trusted-frame" style="margin-left:90px;width:400px;height:160px"></iframe>`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const s = (await o.call('get_state', {})).new_simplified_state!;
    const a = s.actionable_elements.find((e) => e.attributes['id'] === 'a');
    const b = s.actionable_elements.find((e) => e.attributes['id'] === 'b');
    const fi = s.actionable_elements.find((e) => e.attributes['id'] === 'fi');
    expect(a && b && fi, JSON.stringify(s.actionable_elements.map((e) => [e.id, e.attributes['id']]))).to.not.equal(undefined);
    const frame = o.page.frames().find((f) => f.url().endsWith('/trusted-frame'))!;
    const r = await o.call('click', { element_id: a!.id });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.outcome_details!.message).to.match(/^Trusted click/);
    expect((r.outcome_details!.result as { element_id: string }).element_id).to.equal(a!.id);
    expect(await frame.evaluate(() => document.body.dataset['clicked'])).to.equal('a:true');
    await o.ok('hover', { index: b!.index });
    expect(await frame.evaluate(() => document.body.dataset['hovered'])).to.equal('b:true');
    await o.ok('click', { element_id: b!.id });
    expect(await frame.evaluate(() => document.body.dataset['clicked'])).to.equal('b:true');
    await o.ok('fill', { element_id: fi!.id, value: 'in frame' });
    expect(await frame.evaluate(() => (document.getElementById('fi') as HTMLInputElement).value)).to.equal('in frame');
    expect(await debuggerAttached(h, o.tabId)).to.equal(false);
  });

  it('a point that stays outside the viewport (a fixed iframe below the screen) is refused, never a false success', async () => {
    h.fixtures.html('/trusted-offscreen', `<button id="x" onclick="document.body.dataset.clicked='yes'">Off screen</button>`);
    const o = await open(
      h,
      `<p>top</p><iframe src="/trusted-offscreen" style="position:fixed;left:0;top:150vh;width:300px;height:80px"></iframe>`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const s = (await o.call('get_state', { viewport_expansion: -1 })).new_simplified_state!;
    const x = s.actionable_elements.find((e) => e.attributes['id'] === 'x');
    expect(x, 'the button in the fixed frame is listed').to.not.equal(undefined);
    const err = await o.fails('click', { element_id: x!.id }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(err.details).to.deep.include({ reason: 'outside_viewport' });
    expect(err.message).to.match(/outside the visible viewport/);
    const frame = o.page.frames().find((f) => f.url().endsWith('/trusted-offscreen'))!;
    expect(await frame.evaluate(() => document.body.dataset['clicked'] ?? null)).to.equal(null);
    expect(await debuggerAttached(h, o.tabId)).to.equal(false);
  });

  it('fill of a date or range takes the DOM route after validation; keys carry code and location', async () => {
    const o = await open(
      h,
      `<input id="d" type="date"><input id="r" type="range" max="10"><input id="t">
      <script>window.k=[];document.getElementById('t').addEventListener('keydown', e => k.push([e.key, e.code, e.location, e.shiftKey, e.isTrusted].join('|')));</script>`,
    );
    const r = await o.call('fill', { selector: '#d', value: '2024-02-29' });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.outcome_details!.message).to.match(/through the DOM/);
    expect(await o.eval('document.getElementById("d").value')).to.equal('2024-02-29');
    await o.fails('fill', { selector: '#d', value: '2023-02-29' }, 'INVALID_VALUE');
    expect(await o.eval('document.getElementById("d").value')).to.equal('2024-02-29');
    await o.ok('fill', { selector: '#r', value: '3' });
    expect(await o.eval('document.getElementById("r").value')).to.equal('3');
    await o.ok('type', { selector: '#t', text: 'A+' });
    await o.ok('press', { selector: '#t', key: 'ShiftRight' });
    // type sends "A" and "+" as their keys with no Shift held (Playwright's keyboard.type).
    expect(await o.eval('window.k')).to.deep.equal(['A|KeyA|0|false|true', '+|Equal|0|false|true', 'Shift|ShiftRight|2|true|true']);
    expect(await o.eval('document.getElementById("t").value')).to.equal('A+');
  });
});
