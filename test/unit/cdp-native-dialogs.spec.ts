// background/cdp/native-dialogs.ts with a fake chrome: what the worker sends when a CDP client's hold of
// a tab begins (a new-document script on the tab's session, a message to its frames), when an
// out-of-process frame's child session appears (the script on that session, before the event goes on),
// and when the hold ends (frames told; the scripts removed only if the tab stays attached). The e2e
// side (test/e2e/cdp-dialogs.spec.ts) shows the dialogs reach the client; this pins the bookkeeping.
import { expect } from 'chai';

import { NATIVE_DIALOGS_MARK } from '../../extension/src/shared/page-link';

interface Sent {
  target: { tabId?: number; sessionId?: string };
  method: string;
  params: Record<string, unknown>;
}
const commands: Sent[] = [];
const messages: { tabId: number; message: unknown }[] = [];
let nextId = 0;
const fakeChrome = {
  runtime: { lastError: undefined },
  debugger: {
    attach: async () => undefined,
    detach: async () => undefined,
    sendCommand: async (target: Sent['target'], method: string, params: Record<string, unknown>) => {
      commands.push({ target, method, params });
      return method === 'Page.addScriptToEvaluateOnNewDocument' ? { identifier: String(++nextId) } : {};
    },
  },
  tabs: {
    sendMessage: async (tabId: number, message: unknown) => {
      messages.push({ tabId, message });
      return true;
    },
  },
};

describe('native dialogs in a CDP-held tab: the worker side', () => {
  let m: typeof import('../../extension/src/background/cdp/native-dialogs');
  let att: typeof import('../../extension/src/background/cdp/debugger-attachments');
  const g = globalThis as unknown as { chrome?: unknown };
  const previous = g.chrome; // another spec's fake, if any: given back after
  before(async () => {
    g.chrome = fakeChrome;
    m = await import('../../extension/src/background/cdp/native-dialogs');
    att = await import('../../extension/src/background/cdp/debugger-attachments');
  });
  after(() => {
    if (previous === undefined) delete g.chrome;
    else g.chrome = previous;
  });
  beforeEach(() => {
    commands.length = 0;
    messages.length = 0;
  });

  it("a hold adds one new-document script that sets the mark, tells the tab's frames, and is not repeated", async () => {
    await att.holdForRelay(7);
    await m.nativeDialogsOn(7);
    await m.nativeDialogsOn(7);
    expect(commands.map((c) => [c.target, c.method])).to.deep.equal([[{ tabId: 7 }, 'Page.addScriptToEvaluateOnNewDocument']]);
    expect(messages).to.deep.equal([{ tabId: 7, message: { type: 'bux_native_dialogs', on: true } }]);
    // What the script does to a window: a configurable mark, so the page's hooks can delete it.
    const win: Record<symbol, unknown> = {};
    new Function('window', String(commands[0]?.params['source']))(win);
    const d = Object.getOwnPropertyDescriptor(win, Symbol.for(NATIVE_DIALOGS_MARK));
    expect(d).to.include({ value: true, configurable: true });
  });

  it("an out-of-process frame's child session gets the script at once; workers and unheld tabs do not", async () => {
    const attached = (type: string, sessionId: string) => ({ sessionId, targetInfo: { type, targetId: 't' } });
    m.nativeDialogsOnEvent(7, 'Target.attachedToTarget', attached('iframe', 'S1'));
    m.nativeDialogsOnEvent(7, 'Target.attachedToTarget', attached('worker', 'S2'));
    m.nativeDialogsOnEvent(8, 'Target.attachedToTarget', attached('iframe', 'S3'));
    m.nativeDialogsOnEvent(7, 'Page.frameNavigated', attached('iframe', 'S4'));
    // Sent synchronously: before the event is relayed to the client.
    expect(commands.map((c) => [c.target, c.method])).to.deep.equal([
      [{ tabId: 7, sessionId: 'S1' }, 'Page.addScriptToEvaluateOnNewDocument'],
    ]);
    await new Promise((r) => setTimeout(r, 0));
  });

  it('the end of the hold tells the frames, and removes the scripts only while the tab stays attached', async () => {
    await m.nativeDialogsOff(7); // still attached (as when trusted input keeps the attachment)
    expect(commands.map((c) => [c.target, c.method, c.params['identifier']])).to.deep.equal([
      [{ tabId: 7 }, 'Page.removeScriptToEvaluateOnNewDocument', '1'],
      [{ tabId: 7, sessionId: 'S1' }, 'Page.removeScriptToEvaluateOnNewDocument', '2'],
    ]);
    expect(messages).to.deep.equal([{ tabId: 7, message: { type: 'bux_native_dialogs', on: false } }]);

    await m.nativeDialogsOn(7);
    await att.releaseRelay(7); // detached: Chrome dropped the scripts with the session
    commands.length = 0;
    await m.nativeDialogsOff(7);
    expect(commands).to.deep.equal([]);
  });
});
