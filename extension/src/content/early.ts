// Isolated-world script, document_start, every frame: links up with the MAIN-world hooks
// (main-world/hooks.ts: dialogs and fetch/XHR) and answers the worker's settle requests
// (shared/settle-messages.ts). Separate from content.js, which runs at document_idle: requests and
// dialogs must be recorded from the first byte of the page.
import { isChangeMessage } from '../shared/change-messages';
import { isKeepStateMessage, type KeepStateAsk } from '../shared/keep-state-messages';
import {
  DEFAULT_DIALOG_POLICY,
  type DialogPolicy,
  type Envelope,
  HELLO_FROM_ISOLATED,
  HELLO_FROM_MAIN,
  isNativeDialogsMessage,
  type IsolatedToMain,
  TO_ISOLATED,
  TO_MAIN,
} from '../shared/page-link';
import { isSettleRequest, type SettleRequest, type SettleResponse, TAKE_DOWNLOAD_REQUESTS } from '../shared/settle-messages';
import { ChangeWatch } from './change-watch';
import { PageActivity, SettleTracker } from './settle';
import { noteShadowMessage } from './shadow-watch';
import { watchPasswordTypes } from './snapshot/password-history';
import { watchSheetErrors } from './snapshot/sheet-errors';
import { keepState, linkUnseenWatch, noteCdpHold, noteUnseenMessage, relinkKeepState } from './unseen-watch';

declare global {
  interface Window {
    __browserUseExtEarly?: boolean;
  }
}

if (!window.__browserUseExtEarly) {
  window.__browserUseExtEarly = true;
  // From the first byte: a password field a "show password" button later switches to text stays a
  // password for the privacy filter (snapshot/password-history.ts).
  watchPasswordTypes();
  // From the first byte too: which style sheets failed to load (accessible names, snapshot/external-sheets.ts).
  watchSheetErrors();
  const activity = new PageActivity();
  Object.defineProperty(window, TAKE_DOWNLOAD_REQUESTS, { value: () => activity.takeDownloadRequests() });
  const tracker = new SettleTracker(activity);
  const changes = new ChangeWatch();
  const link = document.createElement('div'); // detached: the page never gets a reference to it
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  let policy: DialogPolicy = DEFAULT_DIALOG_POLICY;
  /** Set only once the worker said so: the main world may already know from the new-document mark. */
  let native: boolean | undefined;

  const toMain = (m: IsolatedToMain) => link.dispatchEvent(new CustomEvent(TO_MAIN, { detail: JSON.stringify(m) }));
  link.addEventListener(TO_ISOLATED, (e) => {
    const raw = (e as CustomEvent<unknown>).detail;
    if (typeof raw !== 'string') return;
    try {
      const env = JSON.parse(raw) as Envelope;
      if (env.s !== secret) return; // not from our main-world script
      if (!noteShadowMessage(env.m) && !noteUnseenMessage(env.m)) activity.onMessage(env.m);
    } catch {
      // malformed: ignore
    }
  });
  const hello = () => {
    window.dispatchEvent(new MouseEvent(HELLO_FROM_ISOLATED, { relatedTarget: link }));
    toMain({ t: 'secret', secret });
    toMain({ t: 'policy', policy });
    if (native !== undefined) toMain({ t: 'native', on: native });
    relinkKeepState();
  };
  window.addEventListener(HELLO_FROM_MAIN, hello, true);
  linkUnseenWatch(toMain);
  hello();

  const readPolicy = (raw: unknown) => {
    if (typeof raw === 'object' && raw !== null) policy = { ...DEFAULT_DIALOG_POLICY, ...(raw as Partial<DialogPolicy>) };
    toMain({ t: 'policy', policy });
  };
  chrome.storage.local.get('dialog_policy').then(
    (v) => readPolicy(v['dialog_policy']),
    () => undefined,
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes['dialog_policy']) readPolicy(changes['dialog_policy'].newValue);
  });

  // A CDP client's hold of this tab began or ended (background/cdp/native-dialogs.ts).
  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    if (!isNativeDialogsMessage(message)) return false;
    native = message.on;
    noteCdpHold(native);
    toMain({ t: 'native', on: native });
    sendResponse(true); // the main world knows now (toMain is synchronous): the worker's attach may answer
    return false;
  });
  // An agent's hold of this tab began or ended (background/state/keep-state-arm.ts); listening before
  // asking, so a change made while the ask is answered still arrives (the newer generation wins).
  chrome.runtime.onMessage.addListener((message: unknown) => {
    if (isKeepStateMessage(message)) keepState(message.on, message.gen);
    return false;
  });
  chrome.runtime.sendMessage({ type: 'bux_keep_state_ask' } satisfies KeepStateAsk).then(
    (r: unknown) => {
      if (isKeepStateMessage(r)) keepState(r.on, r.gen);
    },
    () => undefined, // the extension reloading: this frame's scripts are orphaned
  );
  // The worker watches this tab for an agent (background/page-watch/change-push.ts).
  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    if (!isChangeMessage(message) || message.kind !== 'observe') return false;
    changes.observe(message.on);
    sendResponse(true);
    return false;
  });
  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    if (!isSettleRequest(message)) return false;
    answer(message).then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) }));
    return true;
  });

  async function answer(req: SettleRequest): Promise<SettleResponse> {
    switch (req.kind) {
      case 'begin':
        changes.hold();
        tracker.begin();
        return { ok: true, kind: 'begin' };
      case 'wait': {
        const report = await tracker.wait(req.params);
        tracker.end();
        changes.release();
        return { ok: true, kind: 'wait', report, drained: activity.drain() };
      }
      case 'watch': {
        const w = await tracker.watch(req.watch_ms, req.params);
        // Superseded by a newer action: its observer and activity log belong to that action.
        if (w.superseded)
          return { ok: true, kind: 'watch', ...w, drained: { api_activity: [], dialogs: [], dialog_count: 0, pending: [] } };
        tracker.end();
        return { ok: true, kind: 'watch', ...w, drained: activity.drain() };
      }
      case 'network_idle':
        return networkIdle(req.idle_ms, req.timeout_ms);
      case 'drain':
        changes.release();
        return { ok: true, kind: 'drain', drained: activity.drain() };
      case 'download_requests':
        return { ok: true, kind: 'download_requests', requests: activity.takeDownloadRequests() };
    }
  }

  /** No request in flight for idleMs, within timeoutMs. */
  function networkIdle(idleMs: number, timeoutMs: number): Promise<SettleResponse> {
    const start = performance.now();
    return new Promise((resolve) => {
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      const finish = (idle: boolean) => {
        clearTimeout(idleTimer);
        clearTimeout(cap);
        unsubscribe();
        resolve({
          ok: true,
          kind: 'network_idle',
          idle,
          waited_ms: Math.round(performance.now() - start),
          pending: [...activity.pending.values()],
        });
      };
      const arm = () => {
        clearTimeout(idleTimer);
        if (activity.pending.size === 0) idleTimer = setTimeout(() => finish(true), idleMs);
      };
      const unsubscribe = activity.subscribe(arm);
      const cap = setTimeout(() => finish(false), timeoutMs);
      arm();
    });
  }
}
