// Downloads in real Chromium: a click that downloads a file answers with the file Chrome saved (its
// path in the profile's Downloads folder, size, state), as browser_use's click returns the path.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import type { SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { openPanel } from '../harness/panel';
import { quietSettle } from './actions.helpers';

const CSV = 'name,language\nGrace Hopper,COBOL\nAda Lovelace,Analytical Engine\n';
const ZIP = 'PK\u0003\u0004 not really a zip';

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
    h.fixtures.route('/archive.zip', { body: ZIP, contentType: 'application/zip' });
    // Answered a moment after the click: Chrome creates the download item only once the response arrives.
    h.fixtures.route('/slow.csv', { body: CSV, contentType: 'text/csv', delayMs: 100 });
    h.fixtures.html('/slow.html', '<a id="get" href="/slow.csv" download="slow.csv">Get the list</a>', 'Slow');
  });

  const linkIn = (state: SimplifiedState, name: string) => state.actionable_elements.find((e) => (e.name ?? '').includes(name));

  it('navigate to a .zip, or to a URL answered with Content-Disposition: attachment, reports the file (not NAVIGATION_FAILED)', async () => {
    await h.openPage(h.fixtures.url('/attachment.html'));
    const agent = await h.connectAgent();
    const tabId = (await agent.call('get_state', {})).tab_id as number;
    const zip = await agent.call('navigate', { url: h.fixtures.url('/archive.zip') }, { tabId });
    expect(zip.status, JSON.stringify(zip.error_info)).to.equal('success');
    const d = zip.outcome_details?.download;
    expect(d, JSON.stringify(zip.outcome_details)).to.exist;
    expect(d!.state).to.equal('complete');
    expect(path.dirname(d!.filename)).to.equal(h.launched.downloadDir);
    expect(d!.suggested_filename).to.match(/^archive( \(\d+\))?\.zip$/);
    expect(fs.readFileSync(d!.filename, 'latin1')).to.equal(ZIP);
    expect(zip.outcome_details?.navigation_occurred).to.equal(false);
    expect(zip.outcome_details?.message).to.contain('downloaded the file instead of showing a page').and.contain(d!.filename);
    // The tab stays where it was, and its state says so.
    expect((zip.new_simplified_state as SimplifiedState).url).to.equal(h.fixtures.url('/attachment.html'));

    const csv = await agent.call('navigate', { url: h.fixtures.url('/file.csv') }, { tabId });
    expect(csv.status, JSON.stringify(csv.error_info)).to.equal('success');
    expect(csv.outcome_details?.download?.suggested_filename).to.match(/^people( \(\d+\))?\.csv$/);
    expect(fs.readFileSync(csv.outcome_details!.download!.filename, 'utf8')).to.equal(CSV);
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

  it('click by selector on <a download> answered late, settling off: the result still names the file', async () => {
    await h.openPage(h.fixtures.url('/slow.html'));
    const agent = await h.connectAgent();
    const tabId = (await agent.call('get_state', {})).tab_id as number;
    const r = await agent.call('click', { selector: '#get' }, { tabId, settle: { enabled: false } });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    const d = r.outcome_details?.download;
    expect(d?.state, JSON.stringify(r.outcome_details)).to.equal('complete');
    expect(fs.readFileSync(d!.filename, 'utf8')).to.equal(CSV);
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

  // Last: once Chrome blocked the site's downloads it kept blocking them here, a trusted click included.
  it('a repeated download Chrome blocks is DOWNLOAD_BLOCKED, and the panel shows each agent download and what to do', async () => {
    const panel = await openPanel(h.launched.browser);
    await h.openPage(h.fixtures.url('/downloads.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const link = linkIn(first.new_simplified_state as SimplifiedState, 'Download people.csv');
    const ok = await agent.call('click', { index: link!.index! }, { tabId });
    const saved = ok.outcome_details?.download;
    expect(saved?.state, JSON.stringify(ok.outcome_details)).to.equal('complete');
    const line = `Downloaded ${saved!.suggested_filename} to ${path.basename(h.launched.downloadDir)}`;
    await panel.waitForFunction(
      (want: string) => document.querySelector('#download-list li')?.textContent === want,
      { timeout: 10_000 },
      line,
    );
    expect(await panel.$eval('#download-list li', (li) => (li as HTMLElement).title)).to.equal(saved!.filename);

    // The page's second download without a user gesture: Chrome creates no download at all
    // ("This site tried to download multiple files"); the click must not pass for a success.
    // A click there goes as real input unless the agent asks for synthetic input, as here.
    const files = fs.readdirSync(h.launched.downloadDir).length;
    const again = await agent.call('click', { index: link!.index!, trusted: false }, { tabId });
    expect(again.status, JSON.stringify(again.outcome_details)).to.equal('error');
    expect(again.error_info?.error_code).to.equal('DOWNLOAD_BLOCKED');
    expect(again.error_info?.message).to.contain('allow automatic downloads for this site').and.contain('click the download once by hand');
    expect(again.error_info?.details).to.deep.include({ reason: 'automatic_downloads_blocked', url: h.fixtures.url('/file.csv') });
    expect(JSON.stringify(again.error_info)).not.to.contain('s3cr3t');
    expect(fs.readdirSync(h.launched.downloadDir).length).to.equal(files);
    const lines = await panel.waitForFunction(
      () => {
        const texts = [...document.querySelectorAll('#download-list li')].map((li) => li.textContent ?? '');
        return texts.length >= 2 && texts[0]!.startsWith('Chrome blocked') ? texts : null;
      },
      { timeout: 10_000 },
    );
    const texts = (await lines.jsonValue()) as string[];
    expect(texts[0]).to.equal(
      `Chrome blocked a download of file.csv from ${new URL(h.fixtures.url('/')).host}: allow automatic downloads for the site, or click it once by hand`,
    );
    expect(texts[1]).to.equal(line);
    await panel.close();
  });
});
