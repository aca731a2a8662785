// Several downloads in one tab in real Chromium: Chrome lets a page start one download without a user
// gesture and drops the next ones (its "automatic downloads" rule), while a synthetic click carries no
// gesture. Every download an agent's click starts must land and be reported, the tenth as the first.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import type { ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { quietSettle } from './actions.helpers';

const CSV = 'name,language\nGrace Hopper,COBOL\n';
// A button that builds a file in the page and clicks a detached <a download> at a blob: URL.
const EXPORT = `<button id="export" onclick="
  const n = (window.__n = (window.__n || 0) + 1);
  const a = document.createElement('a');
  a.href = window.URL.createObjectURL(new Blob(['row ' + n + '\\n'.repeat(n)], { type: 'text/plain' }));
  a.download = 'export-' + n + '.txt';
  a.click();
">Export</button>`;

describe('e2e downloads: every download in one tab lands', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });

  before(() => {
    h.fixtures.route('/people.csv', {
      body: CSV,
      contentType: 'text/csv',
      headers: { 'content-disposition': 'attachment; filename="people.csv"' },
    });
    h.fixtures.html(
      '/many.html',
      `<a href="/people.csv" download>Download people</a> <a href="/people.csv">Export people</a> ${EXPORT} <button>Nothing</button>`,
      'Many',
    );
  });

  async function clickAll(names: string[]): Promise<{ results: ActionResultMessage[]; after: ActionResultMessage }> {
    await h.openPage(h.fixtures.url('/many.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const out: ActionResultMessage[] = [];
    for (const name of names) {
      const el = state.actionable_elements.find((e) => (e.name ?? '') === name);
      expect(el, name).to.exist;
      out.push(await agent.call('click', { index: el!.index! }, { tabId }));
    }
    const after = out.pop()!;
    return { results: out, after };
  }

  it('ten downloads in one tab (links, Content-Disposition, a blob export): the second and the tenth land and are reported as the first', async () => {
    // The second click is the one Chrome dropped: a page's second download without a user gesture.
    const names = [
      'Export',
      'Export',
      'Download people',
      'Export people',
      'Export',
      'Download people',
      'Export',
      'Export people',
      'Export',
      'Export',
    ];
    const before = fs.readdirSync(h.launched.downloadDir).length;
    const { results, after } = await clickAll([...names, 'Nothing']);
    let exports = 0;
    const saved = new Set<string>();
    names.forEach((name, i) => {
      const r = results[i]!;
      const d = r.outcome_details?.download;
      expect(r.status, `click ${i + 1} (${name}): ${JSON.stringify(r.error_info)}`).to.equal('success');
      expect(d, `click ${i + 1} (${name}): ${JSON.stringify(r.outcome_details)}`).to.exist;
      expect(d!.state).to.equal('complete');
      expect(path.dirname(d!.filename)).to.equal(h.launched.downloadDir);
      const body = name === 'Export' ? `row ${++exports}${'\n'.repeat(exports)}` : CSV;
      expect(fs.readFileSync(d!.filename, 'utf8'), d!.filename).to.equal(body);
      expect(d!.bytes).to.equal(Buffer.byteLength(body));
      expect(r.outcome_details?.message).to.contain(d!.filename);
      saved.add(d!.filename);
    });
    expect(saved.size, 'ten files').to.equal(10);
    expect(fs.readdirSync(h.launched.downloadDir).length - before).to.equal(10);
    // A click that starts no download in that tab reports none.
    expect(after.status, JSON.stringify(after.error_info)).to.equal('success');
    expect(after.outcome_details?.download).to.equal(undefined);
  });

  it('without settling, a blob export is reported, the second as the first', async () => {
    await h.openPage(h.fixtures.url('/many.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const exportButton = (first.new_simplified_state as SimplifiedState).actionable_elements.find((e) => e.name === 'Export');
    for (const n of [1, 2]) {
      const r = await agent.call('click', { index: exportButton!.index! }, { tabId, settle: { enabled: false } });
      const d = r.outcome_details?.download;
      expect(d?.state, `export ${n}: ${JSON.stringify(r.error_info ?? r.outcome_details)}`).to.equal('complete');
      expect(fs.readFileSync(d!.filename, 'utf8')).to.equal(`row ${n}${'\n'.repeat(n)}`);
    }
  });

  // Last: once Chrome holds a tab's downloads it may keep holding the site's.
  it("a blob export Chrome drops (a synthetic click after the tab's first download) is DOWNLOAD_BLOCKED, not a click that saved nothing", async () => {
    await h.openPage(h.fixtures.url('/many.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    const tabId = first.tab_id as number;
    const exportButton = (first.new_simplified_state as SimplifiedState).actionable_elements.find((e) => e.name === 'Export');
    const ok = await agent.call('click', { index: exportButton!.index! }, { tabId });
    expect(ok.outcome_details?.download?.state, JSON.stringify(ok.outcome_details)).to.equal('complete');
    const files = fs.readdirSync(h.launched.downloadDir).length;
    const dropped = await agent.call('click', { index: exportButton!.index!, trusted: false }, { tabId });
    expect(dropped.status, JSON.stringify(dropped.outcome_details)).to.equal('error');
    expect(dropped.error_info?.error_code).to.equal('DOWNLOAD_BLOCKED');
    expect(dropped.error_info?.message).to.contain('"export-2.txt"').and.contain('allow automatic downloads for this site');
    expect(dropped.error_info?.details).to.deep.include({ reason: 'automatic_downloads_blocked', url: h.fixtures.url('/many.html') });
    expect(fs.readdirSync(h.launched.downloadDir).length).to.equal(files);
    // Chrome now holds the tab's downloads until the person answers: a real click is refused too, and says so.
    const held = await agent.call('click', { index: exportButton!.index! }, { tabId });
    expect(held.error_info?.error_code, JSON.stringify(held.outcome_details)).to.equal('DOWNLOAD_BLOCKED');
    expect(held.error_info?.message).to.contain('"export-3.txt"');
    expect(fs.readdirSync(h.launched.downloadDir).length).to.equal(files);
  });
});
