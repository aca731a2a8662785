// The whole loop, as an agent sees it: agent -> bridge -> extension service worker -> content
// script -> page, and back, in headless Chromium with the real built extension.
import { expect } from 'chai';

import type { ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';

const PAGE = `
  <h1>Counter</h1>
  <p id="status">clicked 0 times</p>
  <button id="inc" onclick="document.getElementById('status').textContent = 'clicked ' + (++window.n) + ' times'; this.textContent = 'Add more'">Add one</button>
  <button id="hidden" style="display:none">Hidden</button>
  <label>Name <input id="name" name="name" value="Ada"></label>
  <input type="password" id="pw" value="hunter2">
  <a href="/other">Other page</a>
  <script>window.n = 0</script>`;

function stateOf(r: ActionResultMessage): SimplifiedState {
  expect(r.new_simplified_state, JSON.stringify(r.error_info)).to.be.an('object');
  return r.new_simplified_state as SimplifiedState;
}

describe('e2e: agent -> bridge -> extension -> page', function () {
  let h: Harness;
  useHarness((started) => (h = started), {
    prepare: (started) => started.fixtures.html('/other', '<h1>Other</h1><button>Back home</button>', 'Other'),
  });

  it('get_state lists the visible buttons and inputs with stable ids', async () => {
    const url = h.fixtures.html('/counter', PAGE, 'Counter page');
    await h.openPage(url);
    const agent = await h.connectAgent();
    const r = await agent.call('get_state', {});
    expect(r.status).to.equal('success');
    const state = stateOf(r);
    expect(state.url).to.equal(url);
    expect(state.title).to.equal('Counter page');
    expect(state.tab_id).to.be.a('number');
    const summary = state.actionable_elements.map((e) => [e.type, e.tag, e.attributes['id'] ?? e.attributes['href']]);
    expect(summary).to.deep.equal([
      ['BUTTON', 'button', 'inc'],
      ['INPUT_FIELD', 'input', 'name'],
      ['INPUT_FIELD', 'input', 'pw'],
      ['LINK', 'a', '/other'],
    ]);
    const name = state.actionable_elements.find((e) => e.attributes['id'] === 'name');
    expect(name?.current_value).to.equal('Ada');
    const pw = state.actionable_elements.find((e) => e.attributes['id'] === 'pw');
    expect(pw?.current_value, 'password values never leave the page').to.equal(undefined);
    // Refs are stable: a second state gives the same ids.
    const again = stateOf(await agent.call('get_state', {}));
    expect(again.actionable_elements.map((e) => e.id)).to.deep.equal(state.actionable_elements.map((e) => e.id));
  });

  it('click changes the page and the result carries the new state', async () => {
    const page = await h.openPage(h.fixtures.html('/counter2', PAGE, 'Counter page'));
    const agent = await h.connectAgent();
    const state = stateOf(await agent.call('get_state', {}));
    const button = state.actionable_elements.find((e) => e.attributes['id'] === 'inc');
    expect(button?.text_content).to.equal('Add one');
    const r = await agent.call('click', { element_id: button!.id });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.action).to.equal('click');
    expect(r.outcome_details?.navigation_occurred).to.equal(false);
    const after = stateOf(r);
    const same = after.actionable_elements.find((e) => e.id === button!.id);
    expect(same?.text_content, 'the new state shows the effect of the click').to.equal('Add more');
    expect(await page.$eval('#status', (el) => el.textContent)).to.equal('clicked 1 times');
  });

  it('a click on an unknown id is TARGET_ELEMENT_NOT_FOUND and the page is untouched', async () => {
    const page = await h.openPage(h.fixtures.html('/counter3', PAGE, 'Counter page'));
    const agent = await h.connectAgent();
    await agent.call('get_state', {});
    const r = await agent.call('click', { element_id: 'e9999' });
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('TARGET_ELEMENT_NOT_FOUND');
    expect(r.error_info?.component_origin).to.equal('content_script');
    expect(r.error_info?.message).to.match(/get_state/);
    expect(r.new_simplified_state?.actionable_elements.length).to.equal(4);
    expect(await page.$eval('#status', (el) => el.textContent)).to.equal('clicked 0 times');
  });

  it('a click that navigates reports navigation_occurred with the new page state', async () => {
    await h.openPage(h.fixtures.html('/counter4', PAGE, 'Counter page'));
    const agent = await h.connectAgent();
    const state = stateOf(await agent.call('get_state', {}));
    const link = state.actionable_elements.find((e) => e.tag === 'a');
    const r = await agent.call('click', { element_id: link!.id });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.outcome_details?.navigation_occurred).to.equal(true);
    const after = stateOf(r);
    expect(after.url).to.equal(h.fixtures.url('/other'));
    expect(after.title).to.equal('Other');
  });

  it('an invalid action is answered with a typed error and the connection stays up', async () => {
    await h.openPage(h.fixtures.html('/counter5', PAGE));
    const agent = await h.connectAgent();
    const errors: unknown[] = [];
    agent.on('protocol-error', (e) => errors.push(e));
    agent.sendUnchecked(JSON.stringify({ type: 'action', action_id: 'x1', action: 'click', params: { element_id: 7 } }));
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).to.have.length(1);
    expect(errors[0]).to.deep.include({ error_code: 'INVALID_MESSAGE', component_origin: 'bridge' });
    expect((errors[0] as { details: { instance_path: string } }).details.instance_path).to.equal('/params/element_id');
    const r = await agent.call('get_state', {});
    expect(r.status).to.equal('success');
  });
});
