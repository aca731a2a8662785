// Pointer actions and the actionability contract, through agent -> bridge -> extension -> page:
// click (event order, buttons, counts, modifiers), double_click, hover, focus, check/uncheck,
// drag_and_drop; failures for hidden, disabled, covered, detached, stale, ambiguous targets;
// role/name and selector targets; shadow DOM and iframes.
import { expect } from 'chai';

import { type Harness, useHarness } from '../harness/harness';
import { EVENT_LOG, eventLog, open, quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

/** Records "type:button:buttons:detail" (and pressure for pointer events) of press/release events. */
const MOUSE_LOG = eventLog({
  name: 'mlog',
  types: ['pointerdown', 'mousedown', 'contextmenu', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick'],
  entry: "[t, e.button, e.buttons, e.detail].join(':') + (t.startsWith('pointer') ? '@' + e.pressure : '')",
});

describe('e2e actions: pointer', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });

  it('click fires the real mouse sequence with coordinates and moves focus', async () => {
    const o = await open(
      h,
      `<button id="b" style="position:absolute;left:100px;top:50px;width:80px;height:30px">Go</button>${EVENT_LOG.script}`,
    );
    const r = await o.ok('click', { element_id: await o.id('b') });
    expect(r['x']).to.equal(140);
    expect(r['y']).to.equal(65);
    const log = await EVENT_LOG.read(o);
    // The pointer enters every ancestor (the document listens in the capture phase, so Chromium
    // sends enter to each, the document itself first): the same as puppeteer's real mouse clicking the same page.
    const ref = await h.openPage(o.page.url());
    await ref.click('#b');
    expect(log, "Chromium's own sequence").to.deep.equal(await ref.evaluate(() => (window as unknown as { log: string[] }).log));
    await ref.close();
    expect(log).to.deep.equal([
      'pointerover:b',
      'pointerenter:?',
      'pointerenter:html',
      'pointerenter:body',
      'pointerenter:b',
      'mouseover:b',
      'mouseenter:?',
      'mouseenter:html',
      'mouseenter:body',
      'mouseenter:b',
      'pointermove:b',
      'mousemove:b',
      'pointerdown:b',
      'mousedown:b',
      'focus:b',
      'pointerup:b',
      'mouseup:b',
      'click:b',
    ]);
    expect(await o.eval('document.activeElement.id')).to.equal('b');
  });

  it('click honours button, click_count and modifiers', async () => {
    const seen = eventLog<unknown[]>({
      name: 'seen',
      on: ['t'],
      types: ['click', 'dblclick', 'contextmenu', 'auxclick'],
      entry: '[e.type, e.button, e.detail, e.shiftKey, e.ctrlKey]',
    });
    const o = await open(h, `<div id="t" tabindex="0" style="width:100px;height:40px;background:#ccc">target</div>${seen.script}`);
    await o.ok('click', { selector: '#t', click_count: 2, modifiers: ['Shift'] });
    expect(await seen.take(o)).to.deep.equal([
      ['click', 0, 1, true, false],
      ['click', 0, 2, true, false],
      ['dblclick', 0, 2, true, false],
    ]);
    await o.ok('click', { selector: '#t', button: 'right', modifiers: ['Control'] });
    // Chromium: contextmenu on press with detail 0, auxclick on release with the click count.
    expect(await seen.take(o)).to.deep.equal([
      ['contextmenu', 2, 0, false, true],
      ['auxclick', 2, 1, false, true],
    ]);
    await o.ok('double_click', { selector: '#t' });
    expect(await seen.read(o)).to.deep.equal([
      ['click', 0, 1, false, false],
      ['click', 0, 2, false, false],
      ['dblclick', 0, 2, false, false],
    ]);
  });

  it('a hidden element fails the visible check after the timeout; a disabled one the enabled check', async () => {
    const o = await open(
      h,
      `<button id="shown">ok</button><button id="h" style="display:none">hidden</button><button id="d" disabled>off</button>`,
    );
    const hidden = await o.fails('click', { selector: '#h', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(hidden.details).to.include({ check: 'visible' });
    expect(hidden.message).to.match(/not visible/);
    const disabled = await o.fails('click', { element_id: await o.id('d'), timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(disabled.details).to.include({ check: 'enabled' });
  });

  it('waits for an element that becomes enabled and visible within the timeout', async () => {
    const o = await open(
      h,
      `<button id="late" disabled onclick="this.textContent='done'">wait</button>
      <script>setTimeout(() => document.getElementById('late').disabled = false, 400)</script>`,
    );
    await o.ok('click', { selector: '#late', timeout_ms: 3000 });
    expect(await o.eval('document.getElementById("late").textContent')).to.equal('done');
  });

  it('a moving element fails the stable check; one that stops moving is clicked', async () => {
    const o = await open(
      h,
      `<style>@keyframes slide { from { margin-left: 0 } to { margin-left: 300px } }</style>
      <div><button id="mover" style="animation: slide 1s linear infinite" onclick="window.hit='mover'">Moving</button></div>
      <div><button id="settles" style="animation: slide 0.3s linear 1 forwards" onclick="window.hit='settles'">Settles</button></div>`,
    );
    // Each on its own line: side by side, the mover's margin would keep moving the settled button too.
    // No `alternate`: at a reversal two consecutive frames can show the same box, which is stable
    // by the definition (same box across two frames) and made this test flaky.
    const err = await o.fails('click', { selector: '#mover', timeout_ms: 400 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    expect(err.details, JSON.stringify(err)).to.include({ check: 'stable' });
    expect(await o.eval('String(window.hit)'), 'nothing clicked by the refused click').to.equal('undefined');
    await o.ok('click', { selector: '#settles', timeout_ms: 3000 });
    expect(await o.eval('window.hit'), 'the settled button clicked').to.equal('settles');
    // force skips the checks (Playwright's force) and clicks wherever the element is now.
    await o.ok('click', { selector: '#mover', force: true });
    expect(await o.eval('window.hit'), 'the moving button clicked with force').to.equal('mover');
  });

  it('an element covered by a cookie banner fails naming the banner, and the page is not clicked', async () => {
    const o = await open(
      h,
      `<button id="buy" onclick="window.bought=true">Buy</button>
      <div id="cookie-banner" class="consent overlay" style="position:fixed;inset:0;background:rgba(0,0,0,.5)"><p>We use cookies</p><button id="accept" onclick="document.getElementById('cookie-banner').remove()">Accept</button></div>`,
    );
    const err = await o.fails('click', { selector: '#buy', timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    const details = err.details as {
      check: string;
      covering_element: { tag: string; id: string; class: string; text: string; element_id: string };
    };
    expect(details.check).to.equal('receives_events');
    expect(details.covering_element).to.include({ tag: 'div', id: 'cookie-banner', class: 'consent overlay' });
    expect(details.covering_element.text).to.match(/We use cookies/);
    expect(details.covering_element.element_id).to.match(/^e\d+$/);
    expect(err.message)
      .to.match(/cookie-banner/)
      .and.match(/Close or accept/);
    expect(await o.eval('window.bought === true')).to.equal(false);
    // Accepting the banner makes the button clickable.
    await o.ok('click', { role: 'button', name: 'Accept' });
    await o.ok('click', { selector: '#buy' });
    expect(await o.eval('window.bought')).to.equal(true);
  });

  it('a removed element is stale (never another element), also when removed after the state', async () => {
    const o = await open(
      h,
      `<div id="box"><button id="x" onclick="window.hit='x'">X</button></div><button id="y" onclick="window.hit='y'">Y</button>`,
    );
    const id = await o.id('x');
    await o.eval(`document.getElementById('box').innerHTML = '<button id="x" onclick="window.hit=\\'new\\'">X</button>'`);
    const err = await o.fails('click', { element_id: id }, 'TARGET_ELEMENT_NOT_FOUND');
    expect(err.details).to.include({ reason: 'stale', element_id: id });
    expect(err.message).to.match(/get_state/);
    expect(await o.eval('window.hit === undefined')).to.equal(true);
  });

  it('an element detached while waiting for actionability is reported stale', async () => {
    const o = await open(
      h,
      `<button id="goner" disabled>bye</button><script>setTimeout(() => document.getElementById('goner').remove(), 300)</script>`,
    );
    const err = await o.fails('click', { selector: '#goner', timeout_ms: 3000 }, 'TARGET_ELEMENT_NOT_FOUND');
    expect(err.details).to.include({ reason: 'stale' });
  });

  it('role + name targets: implicit roles, labels, exact; more than one match is AMBIGUOUS_TARGET with candidates', async () => {
    const o = await open(
      h,
      `<button onclick="window.hit='save'">Save</button><button onclick="window.hit='saveas'">Save as…</button>
      <a href="#top" onclick="window.hit='link'">Home</a><label>Email <input id="mail"></label><div role="button" aria-label="Close dialog" onclick="window.hit='close'">×</div>`,
    );
    const amb = await o.fails('click', { role: 'button', name: 'save' }, 'AMBIGUOUS_TARGET');
    const cands = (amb.details as { candidates: { element_id: string; name: string; role: string }[] }).candidates;
    expect(cands.map((c) => c.name)).to.deep.equal(['Save', 'Save as…']);
    expect(cands.every((c) => /^e\d+$/.test(c.element_id))).to.equal(true);
    await o.ok('click', { role: 'button', name: 'Save', exact: true });
    expect(await o.eval('window.hit')).to.equal('save');
    await o.ok('click', { element_id: cands[1]!.element_id });
    expect(await o.eval('window.hit')).to.equal('saveas');
    await o.ok('click', { role: 'link', name: 'home' });
    expect(await o.eval('window.hit')).to.equal('link');
    await o.ok('click', { role: 'button', name: 'Close dialog' });
    expect(await o.eval('window.hit')).to.equal('close');
    await o.ok('fill', { role: 'textbox', name: 'Email', value: 'a@b.c' });
    expect(await o.eval('document.getElementById("mail").value')).to.equal('a@b.c');
    const none = await o.fails('click', { role: 'button', name: 'Delete' }, 'TARGET_ELEMENT_NOT_FOUND');
    expect(none.message).to.match(/role=button/);
  });

  it('selector targets are strict about visible duplicates but skip hidden ones', async () => {
    const o = await open(
      h,
      `<button class="menu" style="display:none" onclick="window.hit='mobile'">Menu</button><button class="menu" onclick="window.hit='desktop'">Menu</button>
      <button class="two">A</button><button class="two">B</button>`,
    );
    await o.ok('click', { selector: '.menu' });
    expect(await o.eval('window.hit')).to.equal('desktop');
    const amb = await o.fails('click', { selector: '.two' }, 'AMBIGUOUS_TARGET');
    expect((amb.details as { count: number }).count).to.equal(2);
    await o.fails('click', { selector: 'button[' }, 'INVALID_MESSAGE');
  });

  it('index targets resolve through the latest state', async () => {
    const o = await open(h, `<button onclick="window.hit=1">One</button><button onclick="window.hit=2">Two</button>`);
    const two = o.state.actionable_elements.find((e) => e.text_content === 'Two');
    await o.ok('click', { index: two!.index });
    expect(await o.eval('window.hit')).to.equal(2);
    await o.fails('click', { index: 999 }, 'TARGET_ELEMENT_NOT_FOUND');
  });

  it('hover dispatches over/enter/move and triggers hover menus; focus focuses without clicking', async () => {
    const o = await open(
      h,
      `<div id="menu" onmouseenter="document.getElementById('sub').style.display='block'" style="width:120px;height:30px;background:#eee">Products</div>
      <div id="sub" style="display:none"><a id="sub1" href="#a">Sub item</a></div><input id="field" onclick="window.clicked=true">`,
    );
    await o.ok('hover', { selector: '#menu' });
    expect(await o.eval('getComputedStyle(document.getElementById("sub")).display')).to.equal('block');
    const r = await o.ok('focus', { selector: '#field' });
    expect(r['focused']).to.equal(true);
    expect(await o.eval('document.activeElement.id')).to.equal('field');
    expect(await o.eval('window.clicked === true')).to.equal(false);
  });

  it('check/uncheck: checkbox, radio, role=switch; no-op when already in state; labels hit-test as the input', async () => {
    const o = await open(
      h,
      `<label><input type="checkbox" id="cb" onchange="window.changes=(window.changes||0)+1"> Subscribe</label>
      <input type="radio" name="r" id="r1" checked><input type="radio" name="r" id="r2">
      <div role="switch" id="sw" aria-checked="false" tabindex="0" onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked')==='true'?'false':'true')">Wifi</div>
      <button id="notcheck">x</button>`,
    );
    let r = await o.ok('check', { selector: '#cb' });
    expect(r).to.include({ checked: true, changed: true });
    r = await o.ok('check', { selector: '#cb' });
    expect(r).to.include({ checked: true, changed: false });
    expect(await o.eval('window.changes')).to.equal(1);
    r = await o.ok('uncheck', { role: 'checkbox', name: 'Subscribe' });
    expect(r).to.include({ checked: false, changed: true });
    await o.ok('check', { selector: '#r2' });
    expect(await o.eval('document.getElementById("r1").checked')).to.equal(false);
    await o.fails('uncheck', { selector: '#r2' }, 'OPERATION_FAILED_IN_TARGET');
    r = await o.ok('check', { role: 'switch', name: 'Wifi' });
    expect(r).to.include({ checked: true, changed: true });
    const bad = await o.fails('check', { selector: '#notcheck' }, 'NOT_CHECKABLE');
    expect(bad.details).to.include({ check: 'checkable' });
  });

  it('custom checkbox: a hidden-by-opacity input under its label is checked through the label', async () => {
    const o = await open(
      h,
      `<label id="lab" style="position:relative;display:inline-block;width:100px;height:30px"><input type="checkbox" id="c" style="position:absolute;opacity:0;left:0;top:0"><span style="position:absolute;inset:0;background:#09f">Agree</span></label>`,
    );
    const r = await o.ok('check', { selector: '#c' });
    expect(r).to.include({ checked: true });
  });

  it('drag_and_drop: HTML5 draggable to a drop zone with a shared DataTransfer', async () => {
    const o = await open(
      h,
      `<div id="src" draggable="true" style="width:60px;height:60px;background:red">drag</div>
      <div id="zone" style="width:120px;height:120px;margin-top:40px;background:#ddd">drop here</div>
      <script>
        const z = document.getElementById('zone');
        document.getElementById('src').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'payload'));
        z.addEventListener('dragover', e => e.preventDefault());
        z.addEventListener('drop', e => { e.preventDefault(); window.dropped = e.dataTransfer.getData('text/plain'); });
      </script>${EVENT_LOG.script}`,
    );
    const r = await o.ok('drag_and_drop', { selector: '#src', to: { selector: '#zone' } });
    expect(r).to.include({ html5: true, drop_accepted: true });
    expect(await o.eval('window.dropped')).to.equal('payload');
    const log = (await EVENT_LOG.read(o)).filter((e) => e.startsWith('drag') || e.startsWith('drop'));
    expect(log[0]).to.equal('dragstart:src');
    expect(log).to.include('dragover:zone');
    expect(log.slice(-2)).to.deep.equal(['drop:zone', 'dragend:src']);
  });

  it('drag_and_drop without HTML5: mouse down, moves, up at coordinates (a slider)', async () => {
    const o = await open(
      h,
      `<div id="track" style="position:absolute;left:0;top:100px;width:300px;height:20px;background:#eee"><div id="knob" style="position:absolute;left:0;width:20px;height:20px;background:#333"></div></div>
      <script>
        let down = false; const k = document.getElementById('knob');
        k.addEventListener('mousedown', () => down = true);
        document.addEventListener('mousemove', e => { if (down && e.buttons === 1) k.style.left = (e.clientX - 10) + 'px'; });
        document.addEventListener('mouseup', e => { down = false; window.upAt = e.clientX; });
      </script>`,
    );
    const r = await o.ok('drag_and_drop', { selector: '#knob', to_point: { x: 210, y: 110 } });
    expect(r['html5']).to.equal(false);
    expect(await o.eval('document.getElementById("knob").style.left')).to.equal('200px');
    expect(await o.eval('window.upAt')).to.equal(210);
  });

  it('shadow DOM: role and selector targets reach into open shadow roots; hit-testing works inside', async () => {
    const o = await open(
      h,
      `<my-widget id="w"></my-widget><script>
      customElements.define('my-widget', class extends HTMLElement { connectedCallback() { const r = this.attachShadow({ mode: 'open' });
        r.innerHTML = '<button id="inner">Shadow action</button><input id="sin" aria-label="Shadow field">';
        r.getElementById('inner').addEventListener('click', () => window.shadowClicked = true); } });
    </script>`,
    );
    await o.ok('click', { role: 'button', name: 'Shadow action' });
    expect(await o.eval('window.shadowClicked')).to.equal(true);
    await o.ok('fill', { selector: '#sin', value: 'deep' });
    expect(await o.eval('document.getElementById("w").shadowRoot.getElementById("sin").value')).to.equal('deep');
    const listed = (await o.call('get_state', {})).new_simplified_state!.actionable_elements.find(
      (e) => e.text_content === 'Shadow action' || e.name === 'Shadow action',
    );
    expect(listed, 'shadow button listed').to.not.equal(undefined);
    await o.ok('click', { element_id: listed!.id });
  });

  it('drag_and_drop inside an iframe: to.element_id and to.index route to the frame; cross-frame drags are refused; ids come back frame-prefixed', async () => {
    h.fixtures.html(
      '/frame-drag',
      `<div id="src" role="button" tabindex="0" draggable="true" style="position:absolute;left:0;top:0;width:60px;height:40px;background:red">drag</div>
      <div id="zone" role="button" tabindex="0" style="position:absolute;left:0;top:60px;width:120px;height:60px;background:#ddd">zone</div>
      <button id="covered" style="position:absolute;left:0;top:150px">Covered</button><div id="cover" style="position:absolute;left:0;top:140px;width:200px;height:50px;background:#000">cover</div>
      <script>
        const z = document.getElementById('zone');
        document.getElementById('src').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'framed'));
        z.addEventListener('dragover', e => e.preventDefault());
        z.addEventListener('drop', e => { e.preventDefault(); window.drops = (window.drops || 0) + 1; });
      </script>`,
    );
    const o = await open(h, `<button id="top">Top</button><iframe src="/frame-drag" style="width:300px;height:220px"></iframe>`);
    await new Promise((r) => setTimeout(r, 300));
    const s = (await o.call('get_state', {})).new_simplified_state!;
    const src = s.actionable_elements.find((e) => e.attributes['id'] === 'src');
    const zone = s.actionable_elements.find((e) => e.attributes['id'] === 'zone');
    const top = s.actionable_elements.find((e) => e.attributes['id'] === 'top');
    expect(src && zone && top, JSON.stringify(s.actionable_elements.map((e) => [e.id, e.attributes['id']]))).to.not.equal(undefined);
    expect(zone!.id).to.match(/^f\d+e\d+$/);
    const frame = o.page.frames().find((f) => f.url().endsWith('/frame-drag'))!;
    expect(await o.ok('drag_and_drop', { element_id: src!.id, to: { element_id: zone!.id } })).to.include({
      html5: true,
      drop_accepted: true,
    });
    expect(await o.ok('drag_and_drop', { index: src!.index, to: { index: zone!.index } })).to.include({ html5: true, drop_accepted: true });
    expect(await frame.evaluate('window.drops')).to.equal(2);
    const cross = await o.fails('drag_and_drop', { element_id: top!.id, to: { element_id: zone!.id } }, 'INVALID_MESSAGE');
    expect(cross.details).to.include({ reason: 'cross_frame' });
    expect(cross.message).to.include('one frame');
    // Results and error details from the subframe carry the wire ids, never the frame-local ones.
    const clicked = await o.ok('click', { element_id: zone!.id });
    expect(clicked['element_id']).to.equal(zone!.id);
    const covered = s.actionable_elements.find((e) => e.attributes['id'] === 'covered')!;
    const err = await o.fails('click', { element_id: covered.id, timeout_ms: 300 }, 'TARGET_ELEMENT_NOT_INTERACTABLE');
    const prefix = zone!.id.replace(/e\d+$/, '');
    expect((err.details as { element_id: string }).element_id).to.equal(covered.id);
    const cover = (err.details as { covering_element: { element_id: string } }).covering_element;
    expect(cover.element_id.startsWith(prefix), JSON.stringify(err.details)).to.equal(true);
    expect(err.message).to.include(cover.element_id);
  });

  it('iframes: an element id from a subframe is routed to that frame', async () => {
    h.fixtures.html('/frame-inner', `<button id="fb" onclick="document.body.dataset.clicked='yes'">Inside frame</button><input id="fi">`);
    const o = await open(h, `<p>outer</p><iframe id="fr" src="/frame-inner" style="width:300px;height:120px"></iframe>`);
    await new Promise((r) => setTimeout(r, 300));
    const s = (await o.call('get_state', {})).new_simplified_state!;
    const btn = s.actionable_elements.find((e) => e.text_content === 'Inside frame');
    expect(btn, `frame button listed in ${JSON.stringify(s.actionable_elements.map((e) => [e.id, e.tag, e.text_content]))}`).to.not.equal(
      undefined,
    );
    expect(btn!.id).to.match(/^f\d+e\d+$/);
    await o.ok('click', { element_id: btn!.id });
    const frame = o.page.frames().find((f) => f.url().endsWith('/frame-inner'));
    expect(await frame!.evaluate(() => document.body.dataset['clicked'])).to.equal('yes');
    const input = s.actionable_elements.find((e) => e.id.startsWith('f') && e.tag === 'input');
    await o.ok('type', { index: input!.index, text: 'hi' });
    expect(await frame!.evaluate(() => (document.getElementById('fi') as HTMLInputElement).value)).to.equal('hi');
  });
  // Mouse input as Chromium on Linux delivers it (measured with Input.dispatchMouseEvent, and what
  // Playwright's page-click tests assert), the same with synthetic events and with trusted input.
  for (const trusted of [false, true]) {
    describe(`Chromium's mouse events (trusted input ${trusted ? 'on' : 'off'})`, () => {
      before(() => setSettings(h, { trusted_input: trusted }));
      after(() => clearSettings(h, ['trusted_input']));

      it('mousedown and mouseup are separate tasks: microtasks and observers from mousedown run before mouseup (and, synthetic, its setTimeout(0) and messages)', async () => {
        const o = await open(
          h,
          `<button id="b" style="width:120px;height:40px">B</button><div id="box"></div><script>
            window.seen = [];
            const n = { mutations: 0, micro: 0, timeout: 0, message: 0 };
            const box = document.getElementById('box');
            new MutationObserver((list) => (n.mutations += list.length)).observe(box, { childList: true });
            const b = document.getElementById('b');
            b.addEventListener('mousedown', () => {
              for (const k in n) n[k] = 0;
              box.appendChild(document.createElement('div'));
              queueMicrotask(() => n.micro++);
              setTimeout(() => n.timeout++, 0);
              const c = new MessageChannel();
              c.port1.onmessage = () => n.message++;
              c.port2.postMessage(0);
            });
            for (const t of ['mouseup', 'click']) b.addEventListener(t, () => seen.push([t, n.mutations, n.micro, n.timeout, n.message]));
          </script>`,
        );
        await o.ok('click', { selector: '#b' });
        const seen = await o.eval<[string, number, number, number, number][]>('window.seen');
        expect(seen.map((s) => s.slice(0, 3))).to.deep.equal([
          ['mouseup', 1, 1],
          ['click', 1, 1],
        ]);
        // Synthetic input leaves a task between press and release, as a person's click does; real
        // input sent back to back may not (Chromium runs input ahead of timers).
        if (!trusted)
          expect(seen.map((s) => s.slice(3))).to.deep.equal([
            [1, 1],
            [1, 1],
          ]);
      });

      it('right click: mousedown, contextmenu, mouseup, auxclick with button 2 and buttons 2 then 0; a left click after it still clicks', async () => {
        const o = await open(
          h,
          `<button id="b" style="width:120px;height:40px" onclick="this.textContent='Clicked!'">Click me</button>${MOUSE_LOG.script}`,
        );
        await o.ok('click', { role: 'button', name: 'Click me', button: 'right' });
        expect(await MOUSE_LOG.take(o)).to.deep.equal([
          'pointerdown:2:2:0@0.5',
          'mousedown:2:2:1',
          'contextmenu:2:2:0',
          'pointerup:2:0:0@0',
          'mouseup:2:0:1',
          'auxclick:2:0:1',
        ]);
        await o.ok('click', { selector: '#b' });
        expect(await o.eval('document.getElementById("b").textContent')).to.equal('Clicked!');
      });

      it('double click: two press/release pairs with detail 1 and 2, click after each, then dblclick; middle click ends in auxclick', async () => {
        const o = await open(h, `<div id="t" style="width:120px;height:40px;background:#ccc">target</div>${MOUSE_LOG.script}`);
        await o.ok('double_click', { selector: '#t' });
        expect(await MOUSE_LOG.take(o)).to.deep.equal([
          'pointerdown:0:1:0@0.5',
          'mousedown:0:1:1',
          'pointerup:0:0:0@0',
          'mouseup:0:0:1',
          'click:0:0:1',
          'pointerdown:0:1:0@0.5',
          'mousedown:0:1:2',
          'pointerup:0:0:0@0',
          'mouseup:0:0:2',
          'click:0:0:2',
          'dblclick:0:0:2',
        ]);
        await o.ok('click', { selector: '#t', button: 'middle' });
        expect(await MOUSE_LOG.take(o)).to.deep.equal([
          'pointerdown:1:4:0@0.5',
          'mousedown:1:4:1',
          'pointerup:1:0:0@0',
          'mouseup:1:0:1',
          'auxclick:1:0:1',
        ]);
      });

      it('clicking a checkbox: mouse events, then click, input, change; it takes focus (page-click, page-focus)', async () => {
        const ev = eventLog({
          name: 'ev',
          on: ['agree'],
          types: ['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'click', 'input', 'change'],
          entry: 't',
        });
        const o = await open(h, `<input type="checkbox" id="agree">${ev.script}`);
        await o.ok('click', { selector: '#agree' });
        expect(await ev.read(o)).to.deep.equal([
          'mouseover',
          'mouseenter',
          'mousemove',
          'mousedown',
          'mouseup',
          'click',
          'input',
          'change',
        ]);
        expect(await o.eval('[document.getElementById("agree").checked, document.activeElement.id]')).to.deep.equal([true, 'agree']);
        await o.ok('click', { selector: '#agree' });
        expect(await o.eval('document.getElementById("agree").checked')).to.equal(false);
      });

      it('modifiers are per click: Shift on one click, none on the next', async () => {
        const o = await open(h, `<button id="b" onclick="window.shiftKey = event.shiftKey">B</button>`);
        await o.ok('click', { selector: '#b', modifiers: ['Shift'] });
        expect(await o.eval('window.shiftKey')).to.equal(true);
        await o.ok('click', { selector: '#b', modifiers: [] });
        expect(await o.eval('window.shiftKey')).to.equal(false);
      });

      it(`hover sets CSS :hover where the page styles the element so (a real pointer, trusted input ${trusted ? 'on' : 'off'}), and runs the JavaScript hover handlers`, async () => {
        const o = await open(
          h,
          `<style>.sub { display: none } #menu:hover .sub { display: block }</style>
          <div id="menu" style="width:160px;height:30px;background:#eee">Products<div class="sub" id="sub">Sub item</div></div>
          <div id="js" style="width:160px;height:30px;margin-top:60px" onmouseenter="window.entered = true">JS menu</div>`,
        );
        const res = await o.call('hover', { selector: '#menu' });
        expect(res.status, JSON.stringify(res.error_info)).to.equal('success');
        const r = (res.outcome_details?.result ?? {}) as Record<string, unknown>;
        const shown = () => o.eval<string>('getComputedStyle(document.getElementById("sub")).display');
        // Synthetic events cannot set :hover, so the page's :hover rule makes this hover a real one
        // whatever the setting (Playwright's hover moves a real pointer).
        expect(r['css_hover']).to.equal(true);
        expect(res.outcome_details?.message).to.match(/^Trusted hover/);
        expect(await o.eval('document.getElementById("menu").matches(":hover")')).to.equal(true);
        expect(await shown()).to.equal('block');
        // No :hover rule for this one: with trusted input off, synthetic events do all a pointer would.
        const js = await o.ok('hover', { selector: '#js' });
        expect(await o.eval('window.entered')).to.equal(true);
        expect(js['css_hover']).to.equal(trusted);
        if (!trusted) expect(js['hover_style_rules']).to.equal(0);
      });
    });
  }
});
