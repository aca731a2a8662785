// Why the page's own download requests are reported: after a tab's first download Chrome drops a
// page's download that has no user gesture behind it, and creates no download item at all, so the
// worker alone cannot tell a dropped download from a click that asked for none. The usual "export"
// button builds a Blob and calls click() on an <a download> it never adds to the page; a link in
// the page may be a blob:/data: <a download> too. Each such request is posted to the isolated world
// (content/settle.ts keeps it for the action's drain), and the worker reports a request that
// produced no file as blocked (background/run/page-action.ts). Only blob: and data: files: their
// item comes at once, while an http(s) link's comes only when its server answers (its own check:
// background/page-watch/downloads.ts, repeatedDownloadBlocked).
import type { MainToIsolated } from '../shared/page-link';

const NAME_MAX = 200;

export function watchDownloadRequests(post: (m: MainToIsolated) => void, addListener: typeof EventTarget.prototype.addEventListener): void {
  // The browser's own functions, kept before any page script can replace them.
  const anchorClick = HTMLAnchorElement.prototype.click;
  const hrefOf = Object.getOwnPropertyDescriptor(HTMLAnchorElement.prototype, 'href')?.get;
  const getAttribute = Element.prototype.getAttribute;
  const connected = Object.getOwnPropertyDescriptor(Node.prototype, 'isConnected')?.get;
  const Anchor = HTMLAnchorElement;
  const now = Date.now;

  const note = (a: HTMLAnchorElement): void => {
    const name = getAttribute.call(a, 'download');
    if (name === null) return; // without the attribute a blob: link opens the file, it does not save it
    const href = hrefOf?.call(a) ?? '';
    const kind = href.startsWith('blob:') ? 'blob' : href.startsWith('data:') ? 'data' : null;
    // When: the worker counts only the requests of the action it runs (settle.ts keeps earlier ones until a drain).
    if (kind) post({ t: 'download_request', kind, name: name.slice(0, NAME_MAX), at: now.call(Date) });
  };

  // A detached anchor's click event never reaches window: its click() is the only place to see it.
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement): void {
    if (this instanceof Anchor && connected?.call(this) === false) note(this);
    anchorClick.call(this);
  };
  // An anchor in the page: its click reaches window (bubbling, after the page's own handlers on
  // the way, so a default they prevented is known). Registered first, at document_start.
  addListener.call(window, 'click', (e: Event) => {
    if (e.defaultPrevented) return;
    const a = e.composedPath().find((n): n is HTMLAnchorElement => n instanceof Anchor);
    if (a) note(a);
  });
}
