// set_input_files in real Chromium: files sent with the action land on an <input type=file> as a
// choice in the file picker would (the page's own change handler lists and reads them), and every
// refusal is typed and changes nothing.
import { expect } from 'chai';

import type { ActionResultMessage, ErrorCode, SimplifiedState } from '../../schemas/generated/protocol';
import type { ActionParams } from '../../schemas/generated/registry';
import { type Harness, useHarness } from '../harness/harness';
import { quietSettle } from './actions.helpers';
import { clearSettings, setSettings } from './worker-actions.helpers';

type Files = ActionParams<'set_input_files'>['files'];
interface PageEvent {
  type: string;
  id: string;
  bubbles: boolean;
  composed: boolean;
  files: string[];
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('e2e set_input_files (upload form)', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle, fixturesDir: 'test/fixtures/pages' });

  async function openUpload() {
    const page = await h.openPage(h.fixtures.url('/upload.html'));
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
    const tabId = first.tab_id as number;
    const state = first.new_simplified_state as SimplifiedState;
    const call = (params: ActionParams<'set_input_files'>): Promise<ActionResultMessage> =>
      agent.call('set_input_files', params, { tabId });
    return {
      page,
      state,
      call,
      async ok(params: ActionParams<'set_input_files'>) {
        const r = await call(params);
        expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
        return r;
      },
      async fails(params: ActionParams<'set_input_files'>, code: ErrorCode) {
        const r = await call(params);
        expect(r.status, `should fail with ${code}`).to.equal('error');
        expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal(code);
        return r.error_info!;
      },
      events: () => page.evaluate('window.events.splice(0)') as Promise<PageEvent[]>,
      text: (sel: string) => page.$eval(sel, (e) => (e as HTMLElement).innerText),
    };
  }

  it('sets one file: the page sees its name, type, size and bytes, after input and change that bubble', async () => {
    const o = await openUpload();
    const r = await o.ok({
      selector: '#one',
      files: [{ name: 'cv.txt', mime_type: 'text/plain', content_base64: b64('Grace Hopper, COBOL') }],
    });
    expect(r.outcome_details?.result).to.deep.equal({
      element_id: (r.outcome_details?.result as { element_id: string }).element_id,
      files: [{ name: 'cv.txt', size: 19, mime_type: 'text/plain' }],
    });
    expect(r.outcome_details?.message).to.match(/^Set 1 file \(cv\.txt, 19 bytes\) on e\d+ <input>\.$/);
    expect(await o.events()).to.deep.equal([
      { type: 'input', id: 'one', bubbles: true, composed: true, files: ['cv.txt'] },
      { type: 'change', id: 'one', bubbles: true, composed: false, files: ['cv.txt'] },
    ]);
    expect(await o.text('#out')).to.equal('one: cv.txt (19 bytes, text/plain)');
    await o.page.waitForFunction(() => document.getElementById('content')?.textContent === 'Grace Hopper, COBOL');
    // By the [N] index of the state too (what browser_use prompts show).
    const idx = o.state.actionable_elements.find((e) => e.attributes['id'] === 'one')?.index;
    expect(idx).to.be.a('number');
    await o.ok({ index: idx!, files: [{ name: 'b.bin', content_base64: b64(Buffer.from([0, 255, 1])) }] });
    expect(await o.text('#out')).to.equal('one: b.bin (3 bytes, no type)');
  });

  it('sets two files on a multiple input, on a hidden input behind a styled label, and [] clears', async () => {
    const o = await openUpload();
    const two: Files = [
      { name: 'a.png', mime_type: 'image/png', content_base64: b64('AAAA') },
      { name: 'b.png', mime_type: 'image/png', content_base64: b64('BBBBBB') },
    ];
    const r = await o.ok({ selector: '#many', files: two });
    expect((r.outcome_details?.result as { files: unknown[] }).files).to.have.length(2);
    expect(await o.text('#out')).to.equal('many: a.png (4 bytes, image/png)\nmany: b.png (6 bytes, image/png)');
    await o.ok({ selector: '#hidden', files: [{ name: 'h.txt', mime_type: 'text/plain', content_base64: b64('hi') }] });
    expect(await o.text('#out')).to.equal('hidden: h.txt (2 bytes, text/plain)');
    await o.events();
    const cleared = await o.ok({ selector: '#many', files: [] });
    expect(cleared.outcome_details?.result).to.deep.include({ files: [] });
    expect(cleared.outcome_details?.message).to.match(/^Cleared the files of /);
    expect(await o.page.$eval('#many', (e) => (e as HTMLInputElement).files?.length)).to.equal(0);
    expect((await o.events()).map((e) => `${e.type}:${e.id}`)).to.deep.equal(['input:many', 'change:many']);
  });

  it('refuses a text input (NOT_FILLABLE), two files for a single input (INVALID_VALUE), too many bytes (FILES_TOO_LARGE): nothing changes', async () => {
    const o = await openUpload();
    const one: Files = [{ name: 'x.txt', content_base64: b64('x') }];
    let e = await o.fails({ selector: '#text', files: one }, 'NOT_FILLABLE');
    expect(e.details).to.deep.include({ element_type: 'input[type=text]' });
    expect(e.message).to.match(/is not a file input.*input\[type=file\]/);
    e = await o.fails({ selector: '#one', files: [...one, { name: 'y.txt', content_base64: b64('y') }] }, 'INVALID_VALUE');
    expect(e.message).to.match(/takes one file \(it has no multiple attribute\), but 2 were given/);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 97);
    const started = Date.now();
    e = await o.fails({ selector: '#many', files: [{ name: 'big.bin', content_base64: b64(big) }] }, 'FILES_TOO_LARGE');
    console.log(`      10 MiB + 1 byte refused in ${Date.now() - started} ms`);
    expect(e.details).to.deep.include({ limit_bytes: 10 * 1024 * 1024, total_bytes: 10 * 1024 * 1024 + 1 });
    expect(e.message).to.match(/more than the 10 MiB one set_input_files carries; nothing was changed\. Upload fewer or smaller files/);
    e = await o.fails({ selector: '#one', files: [{ name: 'z.txt', content_base64: '%%not base64%%' }] }, 'INVALID_VALUE');
    expect(e.message).to.match(/is not base64/);
    expect(await o.events()).to.deep.equal([], 'no input or change event for a refused upload');
    expect(await o.text('#out')).to.equal('');
  });

  it("is refused on a site on the person's blocked domains (NOT_PERMITTED), and the input keeps no file", async () => {
    const o = await openUpload();
    await setSettings(h, { blocked_domains: ['127.0.0.1'] });
    try {
      const e = await o.fails({ selector: '#one', files: [{ name: 'x.txt', content_base64: b64('x') }] }, 'NOT_PERMITTED');
      expect(e.details).to.deep.include({ reason: 'domain_policy' });
    } finally {
      await clearSettings(h, ['blocked_domains']);
    }
    expect(await o.page.$eval('#one', (el) => (el as HTMLInputElement).files?.length)).to.equal(0);
    expect(await o.events()).to.deep.equal([]);
  });

  it('exactly 10 MiB in all goes through, and the page reads every byte', async () => {
    const o = await openUpload();
    const half = Buffer.alloc(5 * 1024 * 1024, 98);
    const started = Date.now();
    const r = await o.ok({
      selector: '#many',
      files: [
        { name: 'h1.bin', content_base64: b64(half) },
        { name: 'h2.bin', content_base64: b64(half) },
      ],
    });
    console.log(`      10 MiB (2 files) set in ${Date.now() - started} ms`);
    expect((r.outcome_details?.result as { files: { size: number }[] }).files.map((f) => f.size)).to.deep.equal([
      5 * 1024 * 1024,
      5 * 1024 * 1024,
    ]);
    expect(await o.text('#out')).to.equal('many: h1.bin (5242880 bytes, no type)\nmany: h2.bin (5242880 bytes, no type)');
    await o.page.waitForFunction(() => document.getElementById('content')?.textContent === 'b'.repeat(5 * 1024 * 1024));
  });
});
