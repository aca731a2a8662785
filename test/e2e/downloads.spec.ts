// Downloads in real Chromium: a click that downloads a file answers with the file Chrome saved (its
// path in the profile's Downloads folder, size, state), as browser_use's click returns the path.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import type { SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { quietSettle } from './actions.helpers';

const CSV = 'name,language\nGrace Hopper,COBOL\nAda Lovelace,Analytical Engine\n';

describe('e2e downloads', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });

  before(() => {
    h.fixtures.route('/file.csv', {
      body: CSV,
      contentType: 'text/csv',
      headers: { 'content-disposition': 'attachment; filename="people.csv"' },
    });
    h.fixtures.html('/attachment.html', '<a href="/file.csv">Export people</a>', 'Export');
    h.fixtures.html('/downloads.html', '<a id="get" href="/file.csv?token=s3cr3t" download>Download people.csv</a>', 'Reports');
  });

  it('click by index on <a download>: the result names the saved file, which has the served bytes', async () => {
    await h.openPage(h.fixtures.url('/downloads.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const link = state.actionable_elements.find((e) => (e.name ?? '').includes('Download people.csv'));
    expect(link, 'the link is listed').to.exist;

    const r = await agent.call('click', { index: link!.index! }, { tabId });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const d = r.outcome_details?.download;
    expect(d, JSON.stringify(r.outcome_details)).to.exist;
    expect(d!.state).to.equal('complete');
    expect(path.dirname(d!.filename)).to.equal(h.launched.downloadDir);
    expect(d!.suggested_filename).to.equal(path.basename(d!.filename));
    expect(d!.suggested_filename).to.match(/\.csv$/);
    expect(fs.readFileSync(d!.filename, 'utf8')).to.equal(CSV);
    expect(d!.bytes).to.equal(Buffer.byteLength(CSV));
    // The query (a token) never reaches the result.
    expect(d!.url).to.equal(h.fixtures.url('/file.csv'));
    expect(JSON.stringify(d) + (r.outcome_details?.message ?? '')).not.to.contain('s3cr3t');
    expect(r.outcome_details?.message).to.contain(d!.filename);

    // The same file again: Chrome saves it under a new name next to the first, and says which.
    // Trusted input (a real user gesture): Chrome blocks a page's second download without one
    // (its "automatic downloads" rule, which a person can allow per site).
    const again = await agent.call('click', { index: link!.index!, trusted: true }, { tabId });
    const d2 = again.outcome_details?.download;
    expect(d2, JSON.stringify(again.outcome_details)).to.exist;
    expect(d2!.state).to.equal('complete');
    expect(d2!.filename).not.to.equal(d!.filename);
    expect(fs.readFileSync(d2!.filename, 'utf8')).to.equal(CSV);
  });

  it('a plain link answered with Content-Disposition: attachment (no download attribute) reports the file', async () => {
    await h.openPage(h.fixtures.url('/attachment.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const link = state.actionable_elements.find((e) => (e.name ?? '').includes('Export'));
    const r = await agent.call('click', { index: link!.index! }, { tabId });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const d = r.outcome_details?.download;
    expect(d, JSON.stringify(r.outcome_details)).to.exist;
    expect(d!.state).to.equal('complete');
    // Chrome names it after Content-Disposition, numbered when the folder already has one.
    expect(d!.suggested_filename).to.match(/^people( \(\d+\))?\.csv$/);
    expect(fs.readFileSync(d!.filename, 'utf8')).to.equal(CSV);
    expect(d!.mime_type).to.equal('text/csv');
    // The tab stays on the page: a download is not a navigation.
    expect((r.new_simplified_state as SimplifiedState).url).to.equal(h.fixtures.url('/attachment.html'));
  });

  it('with settling off, a click on <a download> still reports the file', async () => {
    await h.openPage(h.fixtures.url('/downloads.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const link = state.actionable_elements.find((e) => (e.name ?? '').includes('Download people.csv'));
    const r = await agent.call('click', { index: link!.index! }, { tabId, settle: { enabled: false } });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.outcome_details?.download?.state, JSON.stringify(r.outcome_details)).to.equal('complete');
  });

  it('a click that downloads nothing has no download field', async () => {
    await h.openPage(h.fixtures.url('/downloads.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const p = state.actionable_elements.find((e) => (e.name ?? '').includes('Download'));
    const r = await agent.call('focus', { index: p!.index! }, { tabId });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.outcome_details?.download).to.equal(undefined);
  });
});
