// What a CDP client may send in a tab it holds is an allow list (extension/src/background/
// cdp-method-table.ts): every method of the DevTools protocol is either allowed with the checks of its
// params or refused with why, so a method a newer protocol adds is refused until someone reviews it,
// and what the real clients send keeps working.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { CDP_METHOD_RULES } from '../../extension/src/background/cdp/cdp-method-table';
import {
  domainSection,
  hostOf,
  judgeMethod,
  methodRule,
  NOT_REVIEWED_SECTION,
  siteShown,
} from '../../extension/src/background/cdp/cdp-policy';
import { renderCdpMethodsDoc } from '../../scripts/cdp-methods-doc';

interface ProtocolDomain {
  domain: string;
  commands?: { name: string; parameters?: { name: string }[] }[];
}
const protocolDir = path.join(import.meta.dirname, '..', '..', 'node_modules', 'devtools-protocol', 'json');
const domains: ProtocolDomain[] = ['browser_protocol.json', 'js_protocol.json'].flatMap(
  (f) => (JSON.parse(fs.readFileSync(path.join(protocolDir, f), 'utf8')) as { domains: ProtocolDomain[] }).domains,
);
const commands = new Map(domains.flatMap((d) => (d.commands ?? []).map((c) => [`${d.domain}.${c.name}`, c] as const)));

const allowedNeeds = (method: string, params: Record<string, unknown>) => {
  const v = judgeMethod(method, params);
  if (!v.allowed) throw new Error(`${method} refused: ${v.why}`);
  return v.needs;
};

describe('the CDP allow list of a held tab', () => {
  it('classifies every method of the DevTools protocol: allowed (with its checks) or refused with a why', () => {
    const unreviewed = [...commands.keys()].filter((m) => methodRule(m).kind === 'unreviewed');
    expect(unreviewed, 'review these in cdp-method-table.ts').to.deep.equal([]);
    for (const m of commands.keys()) {
      const rule = methodRule(m);
      if (rule.kind === 'refused') expect(rule.why, m).to.match(/^\S.{15,}[^.]$/);
    }
    expect(commands.size).to.be.greaterThan(600);
  });

  it('names only methods and params the protocol has (a typo would leave the real one unreviewed or unchecked)', () => {
    for (const [domain, r] of Object.entries(CDP_METHOD_RULES)) {
      const named = [...(r.allowed ?? []), ...Object.keys(r.checked ?? {}), ...Object.keys(r.refused ?? {})];
      expect(new Set(named).size, `${domain}: a method listed twice`).to.equal(named.length);
      for (const name of named) expect(commands.has(`${domain}.${name}`), `${domain}.${name}`).to.equal(true);
      for (const [name, c] of Object.entries(r.checked ?? {})) {
        const params = new Set((commands.get(`${domain}.${name}`)?.parameters ?? []).map((p) => p.name));
        const paths = [
          ...(c.urls ?? []),
          ...(c.files ?? []),
          ...(c.frameIds ?? []),
          ...(c.sites?.params ?? []),
          ...Object.keys(c.refusedParams ?? {}),
        ];
        for (const p of paths) expect(params.has(p.split(/[.[]/)[0] ?? ''), `${domain}.${name}: ${p}`).to.equal(true);
      }
    }
  });

  it('refuses a method it does not name, pointing at the doc section that says so', () => {
    for (const m of ['Page.openPersonsBankAccount', 'Nonsense.enable', 'noDot', '']) {
      const v = judgeMethod(m, {});
      expect(v, m).to.deep.include({ allowed: false, section: NOT_REVIEWED_SECTION });
      if (!v.allowed) expect(v.why).to.match(/not on the list/);
    }
  });

  it("keeps every refusal of the refusal list it replaces, and the sites checks (the person's profile, other tabs, the browser)", () => {
    const before = `Browser.close SystemInfo.getInfo Memory.getDOMCounters Tethering.bind Extensions.getExtensions Cast.enable
      Target.createTarget Target.closeTarget Target.activateTarget Target.getTargets Target.setDiscoverTargets
      Target.createBrowserContext Target.disposeBrowserContext Target.getBrowserContexts Target.attachToBrowserTarget
      Target.exposeDevToolsProtocol Target.openDevTools Page.setDownloadBehavior Storage.getCookies Storage.setCookies
      Storage.clearCookies Storage.getTrustTokens Storage.clearTrustTokens Storage.getInterestGroupDetails
      Storage.setInterestGroupTracking Storage.setInterestGroupAuctionTracking Storage.getSharedStorageMetadata
      Storage.getSharedStorageEntries Storage.setSharedStorageEntry Storage.deleteSharedStorageEntry
      Storage.clearSharedStorageEntries Storage.resetSharedStorageBudget Storage.setSharedStorageTracking
      Storage.setStorageBucketTracking Storage.deleteStorageBucket Storage.runBounceTrackingMitigations
      Storage.setAttributionReportingLocalTestingMode Storage.setAttributionReportingTracking
      Storage.sendPendingAttributionReports Storage.getRelatedWebsiteSets Storage.getAffectedUrlsForThirdPartyCookieMetadata
      Storage.setProtectedAudienceKAnonymity Network.getAllCookies Network.clearBrowserCookies Network.clearBrowserCache`;
    for (const m of before.split(/\s+/)) expect(judgeMethod(m, {}).allowed, m).to.equal(false);
    const sited = `Network.getCookies Network.setCookie Network.setCookies Network.deleteCookies Storage.getUsageAndQuota
      Storage.clearDataForOrigin Storage.clearDataForStorageKey Storage.overrideQuotaForOrigin Storage.trackCacheStorageForOrigin
      Storage.trackCacheStorageForStorageKey Storage.trackIndexedDBForOrigin Storage.trackIndexedDBForStorageKey
      CacheStorage.requestCacheNames IndexedDB.requestDatabaseNames IndexedDB.requestDatabase IndexedDB.requestData
      IndexedDB.getMetadata IndexedDB.clearObjectStore IndexedDB.deleteDatabase IndexedDB.deleteObjectStoreEntries
      DOMStorage.getDOMStorageItems DOMStorage.setDOMStorageItem DOMStorage.removeDOMStorageItem DOMStorage.clear`;
    for (const m of sited.split(/\s+/)) {
      const rule = methodRule(m);
      expect(rule.kind === 'allowed' && rule.checks.sites !== undefined, m).to.equal(true);
    }
  });

  it('refuses what reaches past the tab that the old list let through (service workers of every site, a renderer crash, payments)', () => {
    for (const m of [
      'ServiceWorker.enable',
      'ServiceWorker.unregister',
      'Page.crash',
      'Page.setSPCTransactionMode',
      'PWA.install',
      'Target.sendMessageToTarget',
    ])
      expect(judgeMethod(m, {}).allowed, m).to.equal(false);
    const info = judgeMethod('Target.getTargetInfo', { targetId: 'ANOTHER-TAB' });
    expect(info).to.deep.include({ allowed: false, section: domainSection('Target') });
    expect(judgeMethod('Target.getTargetInfo', {}).allowed).to.equal(true);
  });

  it('keeps allowed what Playwright, puppeteer, browser_use and chrome-devtools-mcp send in a page (docs/CDP-CLIENTS*.md)', () => {
    const sent = `Accessibility.getFullAXTree Accessibility.queryAXTree Audits.enable Autofill.enable Autofill.setAddresses CSS.enable
      CSS.startRuleUsageTracking Console.enable DOM.describeNode DOM.enable DOM.focus DOM.getBoxModel DOM.getContentQuads
      DOM.getDocument DOM.getFrameOwner DOM.querySelector DOM.resolveNode DOM.scrollIntoViewIfNeeded DOM.setFileInputFiles
      DOMSnapshot.captureSnapshot DOMStorage.getDOMStorageItems Debugger.enable Debugger.setAsyncCallStackDepth
      Debugger.setBlackboxExecutionContexts Debugger.setBlackboxPatterns Debugger.setPauseOnExceptions Debugger.setSkipAllPauses
      Emulation.setDeviceMetricsOverride Emulation.setEmulatedMedia Emulation.setFocusEmulationEnabled Emulation.setUserAgentOverride
      Fetch.continueRequest Fetch.enable Fetch.fulfillRequest HeapProfiler.takeHeapSnapshot IO.read Input.dispatchDragEvent
      Input.dispatchKeyEvent Input.dispatchMouseEvent Input.insertText Inspector.enable Log.enable Log.startViolationsReport
      Network.enable Network.getResponseBody Network.loadNetworkResource Network.setAttachDebugStack Network.setExtraHTTPHeaders
      Page.addScriptToEvaluateOnNewDocument Page.bringToFront Page.captureScreenshot Page.close Page.createIsolatedWorld Page.enable
      Page.getFrameTree Page.getLayoutMetrics Page.getNavigationHistory Page.getResourceTree Page.handleJavaScriptDialog
      Page.navigate Page.printToPDF Page.reload Page.setFontFamilies Page.setInterceptFileChooserDialog Page.setLifecycleEventsEnabled
      Page.startScreencast Performance.enable Profiler.enable Profiler.startPreciseCoverage Runtime.addBinding Runtime.callFunctionOn
      Runtime.enable Runtime.evaluate Runtime.getIsolateId Runtime.getProperties Runtime.releaseObject Runtime.runIfWaitingForDebugger
      Security.setIgnoreCertificateErrors Storage.getStorageKey Target.attachToTarget Target.detachFromTarget Target.getTargetInfo
      Target.setAutoAttach Tracing.end Tracing.start WebMCP.enable`;
    for (const m of sent.split(/\s+/)) expect(judgeMethod(m, {}), m).to.deep.include({ allowed: true });
  });

  it('extracts what each check judges: the URLs a command loads, the files it puts in the page, its frames, the sites it names', () => {
    expect(allowedNeeds('Page.navigate', { url: 'chrome-extension://x/options.html', frameId: 'F1' })).to.deep.equal({
      urls: ['chrome-extension://x/options.html'],
      files: [],
      frameIds: ['F1'],
      sites: [],
    });
    expect(allowedNeeds('Network.loadNetworkResource', { url: 'https://blocked.example/', frameId: 'F2', options: {} })).to.deep.include({
      urls: ['https://blocked.example/'],
      frameIds: ['F2'],
    });
    expect(allowedNeeds('Fetch.continueRequest', { requestId: 'r', url: 'file:///etc/passwd' }).urls).to.deep.equal(['file:///etc/passwd']);
    // A redirect fulfilled by the client goes where its Location says (header names in any case).
    const headers = [
      { name: 'content-type', value: 'text/html' },
      { name: 'LOCATION', value: 'chrome://settings' },
    ];
    expect(allowedNeeds('Fetch.fulfillRequest', { requestId: 'r', responseCode: 302, responseHeaders: headers }).urls).to.deep.equal([
      'chrome://settings',
    ]);
    expect(allowedNeeds('DOM.setFileInputFiles', { files: ['/home/p/.config/secrets.json', 7], nodeId: 3 }).files).to.deep.equal([
      '/home/p/.config/secrets.json',
    ]);
    expect(
      allowedNeeds('Input.dispatchDragEvent', { type: 'drop', x: 1, y: 1, data: { items: [], files: ['/etc/hostname'] } }).files,
    ).to.deep.equal(['/etc/hostname']);
    expect(allowedNeeds('Page.createIsolatedWorld', { frameId: 'F3' }).frameIds).to.deep.equal(['F3']);
    expect(
      allowedNeeds('Network.setCookies', {
        cookies: [
          { name: 'a', value: '1', url: 'https://a.example/' },
          { name: 'b', value: '1', domain: '.b.example', partitionKey: { topLevelSite: 'https://c.example', hasCrossSiteAncestor: false } },
        ],
      }).sites,
    ).to.deep.equal(['https://a.example/', '.b.example', 'https://c.example']);
    expect(
      allowedNeeds('DOMStorage.getDOMStorageItems', { storageId: { storageKey: 'https://d.example/', isLocalStorage: true } }).sites,
    ).to.deep.equal(['https://d.example/']);
    expect(
      allowedNeeds('IndexedDB.requestDatabaseNames', { storageBucket: { storageKey: 'https://e.example/', name: 'b' } }).sites,
    ).to.deep.equal(['https://e.example/']);
    // A cache id is "<storage key>|<cache name>": it names its site.
    const [cacheId] = allowedNeeds('CacheStorage.requestEntries', { cacheId: 'https://f.example/|v1' }).sites;
    expect(hostOf(cacheId ?? '')).to.equal('f.example');
    expect(siteShown(cacheId ?? '', ['127.0.0.1'])).to.equal(false);
    expect(judgeMethod('Network.getCookies', { urls: ['https://a.example/'] }))
      .to.have.property('sitesWhy')
      .that.matches(/cookies of a site/);
    // Nothing named, nothing to judge: the tab's own cookies.
    expect(allowedNeeds('Network.getCookies', {})).to.deep.equal({ urls: [], files: [], frameIds: [], sites: [] });
  });

  it('points every refusal at a section docs/CDP-METHODS.md has', () => {
    const doc = renderCdpMethodsDoc();
    const anchors = new Set(
      [...doc.matchAll(/^#+ (.+)$/gm)].map((m) =>
        (m[1] ?? '')
          .toLowerCase()
          .replace(/[^\w\s-]/g, '')
          .replace(/\s/g, '-'),
      ),
    );
    const sections = new Set([NOT_REVIEWED_SECTION, ...Object.keys(CDP_METHOD_RULES).map(domainSection)]);
    for (const s of sections) expect(anchors.has(s), s).to.equal(true);
  });
});
