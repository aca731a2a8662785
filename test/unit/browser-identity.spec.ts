// What the extension tells the bridge of its browser at hello (browser-identity.ts), and the
// /json/version the CDP endpoint builds from it (discovery.ts versionOfBrowser): Chrome's product with
// the full version (navigator.userAgent carries only the major since the user-agent reduction), the
// user agent as it is, and nothing for a browser it does not recognise.
import { expect } from 'chai';

import { versionBody, versionOfBrowser } from '../../bridge/agents/cdp/discovery';
import { browserIdentity } from '../../extension/src/background/connection/browser-identity';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/144.0.0.0 Safari/537.36';
const nav = (userAgent: string, full?: { brand: string; version: string }[] | Error) =>
  ({
    userAgent,
    userAgentData:
      full === undefined
        ? undefined
        : { getHighEntropyValues: () => (full instanceof Error ? Promise.reject(full) : Promise.resolve({ fullVersionList: full })) },
  }) as unknown as Navigator;

describe("the extension's browser at hello, and /json/version from it", () => {
  it('names the product Chrome/<full version> from userAgentData, as Browser.getVersion does even in headless mode', async () => {
    const list = [
      { brand: 'Not?A_Brand', version: '99.0.0.0' },
      { brand: 'Chromium', version: '144.0.7559.0' },
    ];
    expect(await browserIdentity(nav(UA, list))).to.deep.equal({ product: 'Chrome/144.0.7559.0', user_agent: UA, brand: 'Chromium' });
    const headful = UA.replace('HeadlessChrome', 'Chrome');
    expect((await browserIdentity(nav(headful, list)))?.product).to.equal('Chrome/144.0.7559.0');
    // Without the hint (or when it fails), the reduced version is all there is.
    expect((await browserIdentity(nav(headful)))?.product).to.equal('Chrome/144.0.0.0');
    expect((await browserIdentity(nav(headful, new Error('no'))))?.product).to.equal('Chrome/144.0.0.0');
    expect(await browserIdentity(nav('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'))).to.equal(null);
  });

  it("/json/version carries Chrome's field names with the browser's product and user agent", () => {
    const v = versionOfBrowser({ product: 'Chrome/144.0.7559.0', user_agent: UA });
    expect(versionBody('ws://127.0.0.1:1/cdp/t', 'id', v!)).to.deep.equal({
      Browser: 'Chrome/144.0.7559.0',
      'Protocol-Version': '1.3',
      'User-Agent': UA,
      'V8-Version': '14.4',
      'WebKit-Version': '537.36',
      webSocketDebuggerUrl: 'ws://127.0.0.1:1/cdp/t/devtools/browser/id',
    });
    expect(versionOfBrowser(undefined)).to.equal(null);
  });
});
