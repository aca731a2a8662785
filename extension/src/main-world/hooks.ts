// MAIN-world script, document_start, every frame: runs before any page script, so the originals it
// keeps (fetch, XHR, dialogs, dispatchEvent, JSON) are the browser's, not the page's.
//  - Dialogs: alert/confirm/prompt never block; they are answered at once by the dialog policy the
//    person set (chrome.storage.local `dialog_policy`, relayed by the isolated world) and reported.
//    beforeunload: with policy "accept" a capturing listener registered before any page listener
//    stops the page's handlers, so leaving never asks (Chrome would otherwise show a modal that
//    blocks the tab until someone answers).
//    In a tab a CDP client holds, dialogs and beforeunload are the browser's own instead (native): the
//    client answers them (Page.javascriptDialogOpening / Page.handleJavaScriptDialog), as on Chrome's
//    own endpoint. The worker marks every new document of such a tab through its DevTools session
//    (background/cdp/native-dialogs.ts: Page.addScriptToEvaluateOnNewDocument, which Chrome runs
//    when the window object is created, before any content or page script); this script reads and
//    removes that mark first thing, so the page never sees it. Documents already open when the hold
//    begins or ends learn it from the isolated world (a `native` message).
//  - Network: every fetch/XHR is reported (method, URL, small text body, status) so the worker can
//    wait for requests in flight and report seed 002's api_activity. URL and body pass the privacy
//    filter (shared/redaction.ts) here, whole, before they are cut to size: a login's password, a
//    card number and its CVC never leave the page (a cut JSON body could no longer be parsed).
//  - Shadow roots: each closed root attached is reported as it happens, so the snapshot can keep
//    "this element hosts no closed root" between states (content/shadow-watch.ts).
//  - Unseen changes: the first change no observer or event reports after the snapshot kept its answer
//    (main-world/unseen-changes.ts, content/snapshot/page-changes.ts); installed only while an agent
//    holds the tab, and removed when it lets go.
//
// Why the page cannot read or forge these reports: the isolated world creates a detached <div>
// (never inserted into the document) and a random per-document secret, and hands both over in a
// synchronous event at document_start, when no page script exists yet to listen. Afterwards the two
// worlds talk only through CustomEvents on that node, which the page has no reference to, and each
// report carries the secret, which the isolated side checks. If the isolated script is injected
// late (a tab open before the extension was installed) the page could in principle observe the
// handshake; the secret then still keeps stray events from other extensions or frames out.
import {
  DEFAULT_DIALOG_POLICY,
  type DialogPolicy,
  HELLO_FROM_ISOLATED,
  HELLO_FROM_MAIN,
  type IsolatedToMain,
  type MainToIsolated,
  NATIVE_DIALOGS_MARK,
  TO_ISOLATED,
  TO_MAIN,
} from '../shared/page-link';
import { redactBody, redactUrl } from '../shared/redaction';
import { watchDownloadRequests } from './download-requests';
import { watchUnseenChanges } from './unseen-changes';

const BODY_MAX = 500;
const URL_MAX = 2000;
const TEXT_MAX = 1000;

(() => {
  const marker = Symbol.for('browser-use-ext.main-hooks');
  const w = window as unknown as Record<symbol, unknown>;
  if (w[marker]) return;
  Object.defineProperty(w, marker, { value: true });
  // Set by the worker's new-document script in a CDP-held tab (see the header); removed before any page script runs.
  const mark = Symbol.for(NATIVE_DIALOGS_MARK);
  let native = Object.getOwnPropertyDescriptor(w, mark)?.value === true;
  delete w[mark];

  const dispatch = EventTarget.prototype.dispatchEvent;
  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const CE = CustomEvent;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const origFetch = window.fetch;
  const xhrOpen = XMLHttpRequest.prototype.open;
  const xhrSend = XMLHttpRequest.prototype.send;
  const origAttachShadow = Element.prototype.attachShadow;
  const origAlert = window.alert;
  const origConfirm = window.confirm;
  const origPrompt = window.prompt;
  // The browser's getter: a page that redefines ShadowRoot.prototype.mode cannot hide a closed root.
  const modeOf = Object.getOwnPropertyDescriptor(ShadowRoot.prototype, 'mode')?.get;
  const isConnectedOf = Object.getOwnPropertyDescriptor(Node.prototype, 'isConnected')?.get;
  const laterInTask = window.queueMicrotask;

  let link: EventTarget | null = null;
  let secret = '';
  let policy: DialogPolicy = DEFAULT_DIALOG_POLICY;
  const backlog: MainToIsolated[] = [];
  let nextId = 0;

  const post = (m: MainToIsolated): void => {
    if (!link || !secret) {
      if (backlog.length < 200) backlog.push(m);
      return;
    }
    dispatch.call(link, new CE(TO_ISOLATED, { detail: stringify({ s: secret, m }) }));
  };

  const onFromIsolated = (e: Event): void => {
    const raw = (e as CustomEvent<unknown>).detail;
    if (typeof raw !== 'string') return;
    let msg: IsolatedToMain;
    try {
      msg = parse(raw) as IsolatedToMain;
    } catch {
      return;
    }
    if (msg.t === 'secret' && !secret) {
      secret = msg.secret;
      for (const m of backlog.splice(0)) post(m);
      if (modeOf) post({ t: 'shadow_watch' });
      if (native) post({ t: 'cdp_held' });
    } else if (msg.t === 'policy') {
      policy = msg.policy;
    } else if (msg.t === 'native') {
      native = msg.on;
    } else if (msg.t === 'arm_unseen') {
      unseen.arm();
    } else if (msg.t === 'keep_state') {
      if (msg.on) unseen.install();
      else unseen.uninstall();
    }
  };

  const onHello = (e: Event): void => {
    const node = (e as MouseEvent).relatedTarget;
    if (link || !node) return;
    link = node;
    addListener.call(link, TO_MAIN, onFromIsolated);
    removeListener.call(window, HELLO_FROM_ISOLATED, onHello, true);
    e.stopImmediatePropagation();
  };
  addListener.call(window, HELLO_FROM_ISOLATED, onHello, true);
  // The isolated world may already be running: ask it to (re)send its hello.
  dispatch.call(window, new CE(HELLO_FROM_MAIN));

  const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);
  const codec = { parse, stringify };
  const absolute = (u: string): string => {
    try {
      return clip(redactUrl(new URL(u, location.href).href), URL_MAX);
    } catch {
      return clip(redactUrl(u), URL_MAX);
    }
  };
  const textBody = (body: unknown): string | undefined => {
    try {
      if (typeof body === 'string') return body ? clip(redactBody(body, codec), BODY_MAX) : undefined;
      if (body instanceof URLSearchParams) return clip(redactBody(body.toString(), codec), BODY_MAX);
    } catch {
      // a body the filter cannot read is not reported at all: never in clear
    }
    return undefined; // FormData, Blob, streams: not read (reading could consume or be large)
  };

  // --- network --------------------------------------------------------------------------------
  window.fetch = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const id = ++nextId;
    try {
      const isReq = typeof Request !== 'undefined' && input instanceof Request;
      const method = (init?.method ?? (isReq ? (input as Request).method : 'GET')).toUpperCase();
      const url = absolute(isReq ? (input as Request).url : String(input));
      const body = textBody(init?.body);
      post({ t: 'req_start', id, call: { method, url, kind: 'fetch', ...(body === undefined ? {} : { body }) } });
    } catch {
      // reporting must never break the page's request
    }
    const p = origFetch.call(this === undefined ? window : (this as typeof window), input, init);
    p.then(
      (r) => post({ t: 'req_end', id, status: r.status }),
      () => post({ t: 'req_end', id, status: 0 }),
    );
    return p;
  } as typeof window.fetch;

  const xhrInfo = new WeakMap<XMLHttpRequest, { method: string; url: string }>();
  XMLHttpRequest.prototype.open = function open(this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    xhrInfo.set(this, { method: String(method).toUpperCase(), url: absolute(String(url)) });
    return (xhrOpen as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.send = function send(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const info = xhrInfo.get(this);
    if (info) {
      const id = ++nextId;
      const text = textBody(body);
      post({
        t: 'req_start',
        id,
        call: { method: info.method, url: info.url, kind: 'xhr', ...(text === undefined ? {} : { body: text }) },
      });
      addListener.call(this, 'loadend', () => post({ t: 'req_end', id, status: this.status }), { once: true } as AddEventListenerOptions);
    }
    return xhrSend.call(this, body);
  };

  // --- shadow roots ---------------------------------------------------------------------------
  let openReported = false;
  if (modeOf) {
    Element.prototype.attachShadow = function attachShadow(this: Element, init: ShadowRootInit): ShadowRoot {
      const root = origAttachShadow.call(this, init);
      try {
        if (modeOf.call(root) === 'closed') post({ t: 'closed_shadow' });
        // An open root of an element not yet in the document is found when the element is added
        // (an added node's roots are read then); one attached in place is reported, like a closed one,
        // once per burst: the listener reads the whole page after the page's script, and a late
        // definition upgrades thousands of elements in one call.
        else if (!openReported && isConnectedOf?.call(this) === true) {
          openReported = true;
          post({ t: 'open_shadow' });
          laterInTask.call(window, () => (openReported = false));
        }
      } catch {
        // reporting must never break the page's component
      }
      return root;
    };
  }

  // Installed later, on top of the attachShadow wrapper above, so that both see every call.
  const unseen = watchUnseenChanges(() => post({ t: 'unseen_change' }));

  // --- dialogs --------------------------------------------------------------------------------
  const report = (kind: 'alert' | 'confirm' | 'prompt', message: unknown, accepted: boolean, promptText?: string | null) =>
    post({
      t: 'dialog',
      record: {
        kind,
        message: clip(String(message ?? ''), TEXT_MAX),
        handled: accepted ? 'accepted' : 'dismissed',
        ...(kind === 'prompt' ? { prompt_text: promptText ?? null } : {}),
      },
    });
  // Native: the browser's own dialog (arguments passed on as given, so Chrome words it as it would).
  window.alert = function alert(...args: [message?: unknown]): void {
    if (native) origAlert.apply(window, args);
    report('alert', args[0], true);
  };
  window.confirm = function confirm(...args: [message?: string]): boolean {
    const ok = native ? origConfirm.apply(window, args) : policy.confirm === 'accept';
    report('confirm', args[0], ok);
    return ok;
  };
  window.prompt = function prompt(...args: [message?: string, defaultValue?: string]): string | null {
    let answer: string | null;
    if (native) answer = origPrompt.apply(window, args);
    else answer = policy.prompt === 'accept' ? (policy.prompt_text ?? args[1] ?? '') : null;
    report('prompt', args[0], answer !== null, answer);
    return answer;
  };
  watchDownloadRequests(post, addListener);
  addListener.call(
    window,
    'beforeunload',
    (e: Event) => {
      if (!native && policy.beforeunload === 'accept') e.stopImmediatePropagation();
    },
    true,
  );
})();
