// Local files enter a page through an agent only from folders the person allowed for uploads
// (Settings, "Folders agents may upload from"; none by default). Chrome reads the files of a CDP
// client's DOM.setFileInputFiles and Input.dispatchDragEvent itself, so without the rule a client
// holding one tab hands the page any file of this computer (the bridge's secrets.json included) and
// reads it back. Real Chromium, the built extension, the real CDP endpoint (puppeteer) and a classic
// agent's set_input_files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';
import puppeteer, { type Browser, type CDPSession, type Frame, type Page } from 'puppeteer-core';

import { mintCdpClient } from '../../bridge/agents/cdp/cdp-clients-file';
import type { ActionResultMessage } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { clearSettings, setSettings } from './worker-actions.helpers';

const KEY = 'upload_folders';
const MARKER = 'bux-upload-marker-7c21d0';

/** A file input and a drop zone that show the name and text of what they receive. */
const UPLOAD_PAGE = `<input type="file" id="f" multiple><div id="drop" style="width:300px;height:120px">drop here</div><pre id="out"></pre>
<script>
const show = async (files) => { out.textContent = (await Promise.all([...files].map(async (f) => f.name + ':' + (await f.text())))).join('|'); };
f.addEventListener('change', () => show(f.files));
drop.addEventListener('dragover', (e) => e.preventDefault());
drop.addEventListener('drop', (e) => { e.preventDefault(); show(e.dataTransfer.files); });
</script>`;

describe('e2e: uploads only from the folders the person allowed', function () {
  this.timeout(120_000);
  let h: Harness;
  useHarness((started) => (h = started), { cleanup: (x) => clearSettings(x, [KEY]) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-upload-'));
  const allowed = path.join(dir, 'allowed');
  const inAllowed = path.join(allowed, 'cv.txt');
  const hidden = path.join(allowed, '.env');
  const outside = path.join(dir, 'outside', 'secret.txt');
  let browser: Browser;
  let page: Page;
  let session: CDPSession;
  let frame: Frame;

  before(async () => {
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.mkdirSync(allowed, { recursive: true });
    fs.writeFileSync(inAllowed, 'Ada Lovelace, analyst');
    fs.writeFileSync(hidden, MARKER);
    fs.writeFileSync(outside, MARKER);
    h.fixtures.html('/upload-child', UPLOAD_PAGE, 'Upload child');
    // localhost and 127.0.0.1 are two sites: the frame is out of process, reached by a child session.
    const childUrl = h.fixtures.url('/upload-child').replace('127.0.0.1', 'localhost');
    const url = h.fixtures.html('/upload-parent', `${UPLOAD_PAGE}<iframe src="${childUrl}"></iframe>`, 'Upload parent');
    const { url: cdpUrl } = mintCdpClient(h.configDir, { name: 'uploader', maxTabs: 2 });
    const version = (await (await fetch(`${cdpUrl(h.bridge.port)}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    browser = await puppeteer.connect({ browserWSEndpoint: version.webSocketDebuggerUrl, defaultViewport: null });
    page = await browser.newPage();
    await page.goto(url);
    const child = page.frames().find((f) => f.url() === childUrl) ?? (await page.waitForFrame((f) => f.url() === childUrl));
    frame = child;
    await frame.waitForSelector('#f');
    session = await page.createCDPSession();
  });
  after(async () => {
    await browser?.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const error = (p: Promise<unknown>) =>
    p.then(
      () => 'answered',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
  const shown = (where: Page | Frame) => where.$eval('#out', (e) => e.textContent);
  const chosen = (where: Page | Frame) => where.$eval('#f', (e) => (e as HTMLInputElement).files?.length ?? -1);
  const inputNode = async () => {
    const { root } = await session.send('DOM.getDocument');
    return (await session.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' })).nodeId;
  };

  it('DOM.setFileInputFiles and Input.dispatchDragEvent with files are refused by default, in the page and in a cross-origin frame', async () => {
    const nodeId = await inputNode();
    const secrets = path.join(h.configDir, 'secrets.json');
    for (const files of [[outside], [secrets], [inAllowed, secrets]]) {
      const why = await error(session.send('DOM.setFileInputFiles', { nodeId, files }));
      expect(why, files.join(', ')).to.contain('DOM.setFileInputFiles refused').and.contain('"Folders agents may upload from"');
    }
    // A puppeteer upload in the out-of-process frame goes through its child session: refused alike.
    const frameInput = await frame.$('input#f');
    expect(await error(frameInput!.uploadFile(outside))).to.contain('no folder for uploads');
    const drag = await error(
      session.send('Input.dispatchDragEvent', {
        type: 'dragEnter',
        x: 20,
        y: 40,
        data: { items: [], files: [outside], dragOperationsMask: 1 },
      }),
    );
    expect(drag).to.contain('Input.dispatchDragEvent refused').and.contain('"Folders agents may upload from"');
    expect([await chosen(page), await shown(page), await chosen(frame), await shown(frame)]).to.deep.equal([0, '', 0, '']);
  });

  it('a file of an allowed folder is accepted and read by the page; hidden files, dot segments and other folders stay refused', async () => {
    await setSettings(h, { [KEY]: [`${pathToFileURL(allowed).href}/`] });
    const nodeId = await inputNode();
    for (const files of [[hidden], [outside], [`${allowed}/../outside/secret.txt`]])
      expect(await error(session.send('DOM.setFileInputFiles', { nodeId, files })), files[0]).to.contain('refused');
    await session.send('DOM.setFileInputFiles', { nodeId, files: [inAllowed] });
    await page.waitForFunction(() => document.getElementById('out')?.textContent !== '');
    expect(await shown(page)).to.equal('cv.txt:Ada Lovelace, analyst');
    const frameInput = await frame.$('input#f');
    await frameInput!.uploadFile(inAllowed);
    await frame.waitForFunction(() => document.getElementById('out')?.textContent !== '');
    expect(await shown(frame)).to.equal('cv.txt:Ada Lovelace, analyst');
    expect(await page.content()).to.not.contain(MARKER);
  });

  it('the classic set_input_files: a file read from outside the allowed folders is refused, inside accepted; bytes without a path pass', async () => {
    await setSettings(h, { [KEY]: [`${pathToFileURL(allowed).href}/`] });
    const classic = await h.openPage(h.fixtures.html('/upload-classic', UPLOAD_PAGE, 'Upload classic'));
    const agent = await h.connectAgent();
    try {
      const first = await agent.call('get_state', {});
      expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
      const tabId = first.tab_id as number;
      const file = (p: string) => ({ name: path.basename(p), content_base64: fs.readFileSync(p).toString('base64'), path: p });
      const set = (files: ReturnType<typeof file>[]): Promise<ActionResultMessage> =>
        agent.call('set_input_files', { selector: '#f', files }, { tabId });
      for (const p of [outside, hidden, path.join(h.configDir, 'secrets.json')]) {
        const r = await set([file(p)]);
        expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NOT_PERMITTED');
        expect(r.error_info?.details).to.include({ reason: 'upload_folder', path: p });
        expect(r.error_info?.message).to.contain('"Folders agents may upload from"');
      }
      expect(await chosen(classic)).to.equal(0);
      const ok = await set([file(inAllowed)]);
      expect(ok.status, JSON.stringify(ok.error_info)).to.equal('success');
      await classic.waitForFunction(() => document.getElementById('out')?.textContent !== '');
      expect(await shown(classic)).to.equal('cv.txt:Ada Lovelace, analyst');
      const made = await agent.call(
        'set_input_files',
        { selector: '#f', files: [{ name: 'note.txt', content_base64: 'aGk=' }] },
        { tabId },
      );
      expect(made.status, JSON.stringify(made.error_info)).to.equal('success');
    } finally {
      await agent.close();
    }
  });
});
