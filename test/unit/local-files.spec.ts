// Which local files an agent may read (extension/src/shared/local-files.ts): none by default, a
// folder the person allowed by decoded path prefix, and no spelling of a path escapes it.
import { expect } from 'chai';

import { displayFolder, folderFromInput, isLocalUrl, localVerdict } from '../../extension/src/shared/local-files';

const DL = 'file:///home/me/Downloads/';
const allowed = (url: string, folders = [DL]) => {
  const v = localVerdict(url, folders);
  return v.local && v.allowed;
};

describe('local files for agents', () => {
  it('counts file:, filesystem:, view-source: of a local URL and blob: of a local page as local; not data: or web URLs', () => {
    for (const u of [
      'file:///etc/passwd',
      'FILE:///etc/passwd',
      ' \tfile:///etc/passwd',
      'fi\tle:///etc/passwd',
      'filesystem:file:///persistent/x',
      'filesystem:https://example.com/temporary/x',
      'view-source:file:///etc/passwd',
      'view-source:view-source:file:///etc/passwd',
      'blob:file:///0b7d2c9e-0000-4000-8000-000000000000',
      'blob:null/0b7d2c9e-0000-4000-8000-000000000000',
    ])
      expect(isLocalUrl(u), u).to.equal(true);
    for (const u of [
      'https://example.com/file:///x',
      'data:text/html,<p>x</p>',
      'about:blank',
      'blob:https://example.com/uuid',
      'view-source:https://a.b/',
    ])
      expect(isLocalUrl(u), u).to.equal(false);
  });

  it('refuses every local URL when no folder is allowed, with a reason that names the setting', () => {
    const v = localVerdict('file:///home/me/Downloads/a.pdf', []);
    expect(v).to.deep.include({ local: true, allowed: false });
    expect(v.local && !v.allowed && v.why).to.match(/allowed no folder/);
    expect(localVerdict('https://example.com/', [])).to.deep.equal({ local: false });
  });

  it('allows files inside an allowed folder and its subfolders, nothing outside or beside it', () => {
    expect(allowed('file:///home/me/Downloads/a.pdf')).to.equal(true);
    expect(allowed('file:///home/me/Downloads/sub/b.html#x?y')).to.equal(true);
    expect(allowed('file:///home/me/Downloads/')).to.equal(true);
    expect(allowed('file://localhost/home/me/Downloads/a.pdf')).to.equal(true);
    expect(allowed('file:///home/me/Downloads%20Old/a.pdf')).to.equal(false);
    expect(allowed('file:///home/me/DownloadsX/a.pdf')).to.equal(false);
    expect(allowed('file:///home/me/downloads/a.pdf'), 'POSIX paths compare exactly').to.equal(false);
    expect(allowed('file:///home/me/a.pdf')).to.equal(false);
    expect(allowed('file://otherhost/home/me/Downloads/a.pdf')).to.equal(false);
  });

  it('no .., %2e%2e, encoded slash or backslash escapes the folder', () => {
    for (const u of [
      'file:///home/me/Downloads/../.config/browser-use-ext/secrets.json',
      'file:///home/me/Downloads/%2e%2e/.config/browser-use-ext/secrets.json',
      'file:///home/me/Downloads/.%2E/.config/browser-use-ext/secrets.json',
      'file:///home/me/Downloads/..%2f.config/browser-use-ext/secrets.json',
      'file:///home/me/Downloads/..%2F..%2Fetc/passwd',
      'file:///home/me/Downloads/..%5c.config/secrets.json',
      'file:///home/me/Downloads/sub/%2e%2e/%2e%2e/x',
      'file:///home/me/Downloads//../../etc/passwd',
      'file:///home/me/Downloads/a%00.txt',
      'file:///home/me/Downloads/%E0%A4%A',
      'view-source:file:///home/me/Downloads/../x',
    ])
      expect(allowed(u), u).to.equal(false);
  });

  it('keeps hidden files and folders below the allowed folder, and the bridge settings folder anywhere, blocked', () => {
    expect(allowed('file:///home/me/.ssh/id_ed25519', ['file:///home/me/'])).to.equal(false);
    expect(allowed('file:///home/me/.config/browser-use-ext/secrets.json', ['file:///home/me/'])).to.equal(false);
    expect(allowed('file:///home/me/Downloads/.env')).to.equal(false);
    expect(allowed('file:///home/me/.config/browser-use-ext/secrets.json', ['file:///home/me/.config/'])).to.equal(false);
    expect(allowed('file:///home/me/notes.txt', ['file:///home/me/'])).to.equal(true);
  });

  it('never allows filesystem: or blob: of a local page, whatever the folders', () => {
    expect(allowed('filesystem:file:///home/me/Downloads/x', [DL, 'file:///'])).to.equal(false);
    expect(allowed('blob:file:///0b7d2c9e', [DL])).to.equal(false);
  });

  it('Windows drive paths compare without letter case', () => {
    const w = ['file:///C:/Users/me/Downloads/'];
    expect(allowed('file:///c:/users/ME/downloads/a.pdf', w)).to.equal(true);
    expect(allowed('file:///C:/Users/me/a.pdf', w)).to.equal(false);
    expect(allowed('file:///C:/Users/me/Downloads/..%5c..%5cx', w)).to.equal(false);
  });

  it('reads the folders a person types, refusing a whole disk and the settings folder, warning for a home folder', () => {
    expect(folderFromInput('/home/me/Downloads')).to.deep.equal({ ok: true, url: DL, warning: null });
    expect(folderFromInput('file:///home/me/Downloads')).to.deep.equal({ ok: true, url: DL, warning: null });
    expect(folderFromInput('/home/me/My Files/')).to.deep.include({ ok: true, url: 'file:///home/me/My%20Files/' });
    expect(folderFromInput('C:\\Users\\me\\Downloads')).to.deep.include({ ok: true, url: 'file:///C:/Users/me/Downloads/' });
    expect(folderFromInput('/home/me/Downloads/../x')).to.deep.include({ ok: true, url: 'file:///home/me/x/' });
    const home = folderFromInput('/home/me');
    expect(home.ok && home.warning).to.match(/hidden/);
    for (const bad of ['/', 'C:\\', 'Downloads', 'https://example.com/', '/home/me/.config', '/home/me/.config/browser-use-ext/'])
      expect(folderFromInput(bad).ok, bad).to.equal(false);
    expect(displayFolder('file:///home/me/My%20Files/')).to.equal('/home/me/My Files/');
    expect(displayFolder('file:///C:/Users/me/')).to.equal('C:/Users/me/');
  });
});
