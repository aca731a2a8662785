// Which local files an agent may put into a page (extension/src/background/policy/upload-policy.ts): only
// inside a folder the person allowed for uploads, as CDP passes paths (POSIX, Windows, UNC) or as
// file: URLs, and no spelling escapes the folder or reaches a hidden file or the settings folder.
import { expect } from 'chai';

import { uploadVerdict } from '../../extension/src/background/policy/upload-policy';

const UP = ['file:///home/me/Uploads/', 'file:///C:/Users/me/Uploads/'];

describe('upload folders for agents', () => {
  it('accepts a file inside an allowed folder, written as a POSIX path, a Windows path (any case, either slash) or a file: URL', () => {
    for (const p of [
      '/home/me/Uploads/cv.pdf',
      '/home/me/Uploads/sub dir/a b.txt',
      'file:///home/me/Uploads/cv.pdf',
      'C:\\Users\\me\\Uploads\\cv.pdf',
      'c:/users/ME/uploads/cv.pdf',
    ])
      expect(uploadVerdict(p, UP), p).to.equal(null);
  });

  it('refuses everything when no folder is allowed, saying so', () => {
    expect(uploadVerdict('/home/me/Uploads/cv.pdf', [])).to.equal('the person has allowed no folder for uploads');
  });

  it('refuses paths outside, hidden ones, the settings folder, dot segments, relative and UNC paths, and non-paths', () => {
    for (const p of [
      '/etc/passwd',
      '/home/me/Uploads2/x',
      '/home/me/Uploads/../.ssh/id_rsa',
      '/home/me/Uploads/./cv.pdf',
      'file:///home/me/Uploads/%2e%2e/secrets.json',
      'file:///home/me/Uploads/a%2Fb',
      '/home/me/Uploads/.env',
      '/home/me/Uploads/.git/config',
      '/home/me/Uploads/.config/browser-use-ext/secrets.json',
      '/home/me/.config/browser-use-ext/secrets.json',
      'cv.pdf',
      '~/Uploads/cv.pdf',
      '\\\\server\\share\\Uploads\\cv.pdf',
      '//home/me/Uploads/cv.pdf',
      'C:\\Users\\me\\Uploads\\..\\x',
      'https://example.com/cv.pdf',
      '',
      42,
    ])
      expect(uploadVerdict(p, UP), String(p)).to.be.a('string');
    // A whole home folder allowed: its hidden files and folders stay out.
    for (const p of ['/home/me/.ssh/id_rsa', '/home/me/.config/browser-use-ext/secrets.json', '/home/me/docs/.env'])
      expect(uploadVerdict(p, ['file:///home/me/']), p).to.match(/hidden|settings folder/);
  });
});
