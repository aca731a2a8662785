// Why: the snapshot keeps its last answer only while nothing it read can have changed
// (snapshot/page-changes.ts). Changes that no MutationObserver or event reports (a script's CSSOM
// edits, values set from script, element scrolls, animate(), attachShadow...) are reported by the
// main-world wrappers (main-world/unseen-changes.ts) through early.ts, which owns the private page
// link; content.js reads the count here and arms the next report. Both scripts run in this isolated
// world and share one object on window. Nothing is kept, wrapped or watched unless an agent holds
// the tab (background/state/keep-state-arm.ts): keepState() installs and removes the wrappers and
// tells content.js to drop what it kept.
import type { IsolatedToMain, MainToIsolated } from '../shared/page-link';
import { mainHooksLinked } from './shadow-watch';

declare global {
  interface Window {
    /** Made by early.ts (document_start), read by content.js. */
    __browserUseExtUnseen?: Shared;
  }
}

interface Shared {
  count: number;
  send: ((m: IsolatedToMain) => void) | null;
  /**
   * A CDP client holds this tab: it can edit sheets, force :hover and emulate media through
   * DevTools, where no page hook sees it; nothing is kept while it does.
   */
  cdpHeld: boolean;
  /** An agent holds this tab: the wrappers are installed and states may be kept. */
  keeping: boolean;
  /** The newest KeepStateMessage generation applied. */
  gen: number;
  /** content.js: drop every kept answer and stop watching the page. */
  onDisarm: (() => void) | null;
}

function shared(): Shared {
  return (window.__browserUseExtUnseen ??= { count: 0, send: null, cdpHeld: false, keeping: false, gen: 0, onDisarm: null });
}

/** early.ts: the worker said whether an agent holds this tab (a message or the answer to the frame's ask). */
export function keepState(on: boolean, gen: number): void {
  const s = shared();
  if (gen <= s.gen) return; // older than what this frame already applied
  s.gen = gen;
  if (on === s.keeping) return;
  s.keeping = on;
  s.send?.({ t: 'keep_state', on });
  if (!on) s.onDisarm?.();
}

/** early.ts: the main world (re)linked; it has the wrappers only if told again. */
export function relinkKeepState(): void {
  const s = shared();
  if (s.keeping) s.send?.({ t: 'keep_state', on: true });
}

/** content.js: called when the hold ends. */
export function onKeepStateOff(drop: () => void): void {
  shared().onDisarm = drop;
}

/** May a state be kept in this frame now (an agent holds the tab)? */
export function keepingState(): boolean {
  return shared().keeping;
}

/**
 * Does an agent or a CDP client hold this tab? What a page could notice of us (a message posted to
 * its frames) happens only then: in every other tab the page sees no sign of the extension.
 */
export function tabHeld(): boolean {
  const s = shared();
  return s.keeping || s.cdpHeld;
}

/** early.ts: a CDP client's hold of this tab began or ended. */
export function noteCdpHold(on: boolean): void {
  shared().cdpHeld = on;
}

/** early.ts: how to reach the main world (its private link). */
export function linkUnseenWatch(send: (m: IsolatedToMain) => void): void {
  shared().send = send;
}

/** early.ts: counts the hooks' unseen-change reports; false for any other message. */
export function noteUnseenMessage(m: MainToIsolated): boolean {
  if (m.t === 'cdp_held') shared().cdpHeld = true;
  else if (m.t === 'unseen_change') shared().count++;
  else return false;
  return true;
}

/**
 * The number of unseen changes reported so far, or null when they would not be reported: no agent
 * holds the tab (no wrapper is installed), the hooks are not linked (a page opened before the
 * extension, or a document where they could not run), or a CDP client holds the tab.
 */
export function unseenChangeCount(): number | null {
  const s = shared();
  if (!s.send || !s.keeping || s.cdpHeld || !mainHooksLinked()) return null;
  return s.count;
}

/** Asks the hooks to report the next unseen change (once). Synchronous: the main world is armed on return. */
export function armUnseenWatch(): void {
  shared().send?.({ t: 'arm_unseen' });
}
