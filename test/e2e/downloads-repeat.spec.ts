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
});
