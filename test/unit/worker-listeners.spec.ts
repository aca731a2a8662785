// Every chrome.* listener of the worker is registered by its entry (extension/src/background/index.ts),
// which calls each room's install*() synchronously at top level: MV3 wakes a stopped worker only for
// events whose listeners exist when the script first runs
// (https://developer.chrome.com/docs/extensions/develop/concepts/service-workers/events#declare-events).
// A module that registered on import would work only as long as someone happened to import it early.
// So importing every room's module with a fake chrome registers nothing; each install*() does.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';

const WORKER = path.resolve('extension/src/background');
/** The rooms below the entry (the entry and the files beside it wire them and are not imported here). */
const ROOMS = ['actions', 'page-watch', 'state', 'cdp', 'panel', 'connection', 'policy', 'run'];

/** Where a listener was added: "tabs.onRemoved" and the like. */
const added: string[] = [];

/** A chrome whose every event records addListener and whose every call resolves to []: enough for a module's top level. */
function fakeApi(name: string): unknown {
  const children = new Map<PropertyKey, unknown>();
  const fn = () => Promise.resolve([]);
  return new Proxy(fn, {
    get(_t, key) {
      if (key === 'then') return undefined; // not a promise itself
      if (key === 'addListener') return () => void added.push(name);
      if (!children.has(key)) children.set(key, fakeApi(name ? `${name}.${String(key)}` : String(key)));
      return children.get(key);
    },
  });
}

const roomFiles = (): string[] =>
  ROOMS.filter((r) => fs.existsSync(path.join(WORKER, r))).flatMap((r) =>
    fs
      .readdirSync(path.join(WORKER, r))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(WORKER, r, f)),
  );

describe('worker listeners: registered by the entry, never on import', () => {
  before(() => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeApi('');
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });

  it("importing every room's modules registers no chrome listener", async () => {
    const files = roomFiles();
    expect(files.length).to.be.greaterThan(40);
    for (const f of files) await import(pathToFileURL(f).href);
    expect(added, 'listeners registered on import').to.deep.equal([]);
  });

  it('the install*() functions register them', async () => {
    const { installClosedTabs } = await import('../../extension/src/background/closed-tabs');
    const { installPersonPolicy } = await import('../../extension/src/background/policy/person-policy');
    const { installCdpRelay } = await import('../../extension/src/background/cdp/cdp-relay');
    const { installDownloads } = await import('../../extension/src/background/page-watch/downloads');
    added.length = 0;
    installClosedTabs();
    installPersonPolicy();
    installCdpRelay();
    installDownloads();
    expect(added).to.deep.equal([
      'tabs.onRemoved',
      'storage.onChanged',
      'tabs.onUpdated',
      'tabs.onRemoved',
      'webNavigation.onCreatedNavigationTarget',
      'tabs.onCreated',
      'debugger.onEvent',
      'debugger.onDetach',
      'downloads.onCreated',
      'downloads.onChanged',
    ]);
  });
});
