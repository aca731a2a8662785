// One chrome.debugger attachment per tab, shared by its two users: a CDP client's relay (cdp-relay.ts,
// held from cdp_attach until cdp_detach, the lease's end or Stop) and trusted input (trusted-input.ts,
// held for one action). Chrome allows an extension one attachment per tab ("Another debugger is
// already attached"), so the second user reuses the first's: trusted input on a tab a CDP client holds
// leaves it attached, and a cdp_attach while trusted input runs waits for that attach and keeps it.
// The tab is detached when its last user lets go, so Chrome's "started debugging this browser" bar
// never stays on a tab nobody uses.
type Debuggee = chrome.debugger.Debuggee;
export const PROTOCOL = '1.3';

interface Attachment {
  /** Settles when chrome.debugger.attach did (rejected: the attach failed and the entry is gone). */
  ready: Promise<void>;
  /** A CDP client holds the tab (events are relayed). */
  relay: boolean;
  /** Trusted input actions running on it. */
  brief: number;
}

const attachments = new Map<number, Attachment>();
/** Tabs whose chrome.debugger.detach has not finished yet. */
const detaching = new Set<number>();

/** Attaches the tab unless it is attached already, and waits for it. Rejects with Chrome's error. */
async function acquire(tabId: number): Promise<Attachment> {
  let a = attachments.get(tabId);
  if (!a) {
    const ready = chrome.debugger.attach({ tabId } satisfies Debuggee, PROTOCOL);
    const entry: Attachment = { ready, relay: false, brief: 0 };
    attachments.set(tabId, entry);
    ready.catch(() => {
      if (attachments.get(tabId) === entry) attachments.delete(tabId);
    });
    a = entry;
  }
  await a.ready;
  return a;
}

/** Detaches when nobody uses the tab any more. */
async function letGo(tabId: number, a: Attachment): Promise<void> {
  if (a.relay || a.brief > 0 || attachments.get(tabId) !== a) return;
  attachments.delete(tabId);
  detaching.add(tabId);
  await chrome.debugger.detach({ tabId }).catch(() => undefined);
  detaching.delete(tabId);
}

/** Trusted input's use: attached for fn only, unless a CDP client holds the tab (then left attached). */
export async function withAttachment<T>(tabId: number, fn: () => Promise<T>): Promise<T> {
  const a = await acquire(tabId);
  a.brief++;
  try {
    return await fn();
  } finally {
    a.brief--;
    await letGo(tabId, a);
  }
}

/** A CDP client takes the tab: attached (or kept attached) until releaseRelay. true: it did not hold it before. */
export async function holdForRelay(tabId: number): Promise<boolean> {
  const a = await acquire(tabId);
  const fresh = !a.relay;
  a.relay = true;
  return fresh;
}

/** The CDP client lets go; true when it held the tab. Detaches unless trusted input still runs on it. */
export async function releaseRelay(tabId: number): Promise<boolean> {
  const a = attachments.get(tabId);
  if (!a) return false;
  await a.ready.catch(() => undefined);
  if (!a.relay) return false;
  a.relay = false;
  await letGo(tabId, a);
  return true;
}

export function relayHolds(tabId: number): boolean {
  return attachments.get(tabId)?.relay === true;
}

/** The extension's debugger is on the tab (attaching, attached or detaching), for a client or for trusted input. */
export function attachedNow(tabId: number): boolean {
  return attachments.has(tabId) || detaching.has(tabId);
}

/** Tabs a CDP client holds. */
export function relayTabs(): number[] {
  return [...attachments].filter(([, a]) => a.relay).map(([tabId]) => tabId);
}

/**
 * Chrome detached the tab (the person cancelled the debugging bar, the tab closed or crashed, a
 * navigation to a page extensions may not debug): forget it. Returns whether a CDP client held it.
 */
export function onChromeDetached(tabId: number): boolean {
  const a = attachments.get(tabId);
  if (!a) return false;
  attachments.delete(tabId);
  return a.relay;
}
