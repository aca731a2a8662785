// docs/CDP-METHODS.md is generated from the lists the endpoint and the extension enforce; a stale copy
// would tell people a method works (or is refused) when the code says otherwise.
import fs from 'node:fs';

import { expect } from 'chai';

import { CDP_METHODS_DOC, renderCdpMethodsDoc } from '../../scripts/cdp-methods-doc';

describe('docs/CDP-METHODS.md', () => {
  it('is what scripts/cdp-methods-doc.ts makes of the enforced lists (run `npm run gen:cdp-docs` when this fails)', () => {
    expect(fs.readFileSync(CDP_METHODS_DOC, 'utf8')).to.equal(renderCdpMethodsDoc());
  });

  it('names the refusals a person relies on: closing their browser, their whole profile, other tabs', () => {
    const doc = renderCdpMethodsDoc();
    expect(doc).to.include('`Browser.close`');
    // Inside a tab, each domain has its table: the refusal is a row of it.
    for (const m of ['Storage.getCookies', 'Network.getAllCookies', 'Target.createBrowserContext']) {
      const [domain, name] = m.split('.');
      const section = doc.slice(doc.indexOf(`### In a tab: ${domain}\n`));
      expect(section.slice(0, section.indexOf('\n### ', 5)), m).to.include(`| \`${name}\` | **refused** |`);
    }
  });
});
