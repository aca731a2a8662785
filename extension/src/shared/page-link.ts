// Messages between the extension's MAIN-world script (main-world/hooks.ts, runs with the page's
// own JavaScript) and its isolated-world settle script (content/early.ts). They travel as JSON
// strings in CustomEvents dispatched on a private, detached <div> that the isolated world creates and
// hands to the main world at document_start; see main-world/hooks.ts for why the page cannot read or
// forge them. Never part of the wire protocol.
import type { ApiCall, DialogRecord } from '../../../schemas/generated/protocol';

/** Fired on window by each side when it starts; the later side completes the handshake. */
export const HELLO_FROM_MAIN = 'bux-link-main-hello';
export const HELLO_FROM_ISOLATED = 'bux-link-isolated-hello';
/** Fired on the private node. */
export const TO_ISOLATED = 'bux-link-to-isolated';
export const TO_MAIN = 'bux-link-to-main';

/** How the main world answers dialogs (chrome.storage.local key `dialog_policy`). */
export interface DialogPolicy {
  /** confirm(): accept = OK (true), dismiss = Cancel (false). */
  confirm: 'accept' | 'dismiss';
  /** prompt(): accept = OK with prompt_text (or the page's default value), dismiss = Cancel (null). */
  prompt: 'accept' | 'dismiss';
  /** Text answered to prompt() when accepting; null = the default value the page offered. */
  prompt_text: string | null;
  /**
   * beforeunload: accept = leave without asking (the page's handlers are skipped); dismiss = let Chrome ask (hangs unless someone answers).
   */
  beforeunload: 'accept' | 'dismiss';
}

export const DEFAULT_DIALOG_POLICY: DialogPolicy = { confirm: 'accept', prompt: 'accept', prompt_text: null, beforeunload: 'accept' };

export type MainToIsolated =
  | { t: 'req_start'; id: number; call: ApiCall }
  | { t: 'req_end'; id: number; status: number }
  | { t: 'dialog'; record: DialogRecord }
  /** attachShadow is wrapped: every closed root attached from now on is reported (content/shadow-watch.ts). */
  | { t: 'shadow_watch' }
  /** A closed shadow root was just attached (sent before attachShadow returns to the page). */
  | { t: 'closed_shadow' }
  /**
   * An open shadow root was just attached to an element already in the document (sent before
   * attachShadow returns; once for a burst of them in one task): no observer of the document sees
   * into it, and it is found by no added node.
   */
  | { t: 'open_shadow' }
  /** The page activated an <a download> of a blob: or data: file (main-world/download-requests.ts). */
  | { t: 'download_request'; kind: 'blob' | 'data'; name: string; at: number }
  /** The page made a change no MutationObserver or event reports (main-world/unseen-changes.ts), first since the last arm. */
  | { t: 'unseen_change' }
  /** This document is in a tab a CDP client holds (the new-document mark): its CSS and media edits reach no hook. */
  | { t: 'cdp_held' };

/** native: dialogs and beforeunload are the browser's own (a CDP client holds the tab and answers them). */
export type IsolatedToMain =
  | { t: 'policy'; policy: DialogPolicy }
  | { t: 'secret'; secret: string }
  | { t: 'native'; on: boolean }
  /** Report the next unseen change (content/snapshot/page-changes.ts keeps a state that only such a change could make stale). */
  | { t: 'arm_unseen' }
  /** An agent holds this tab (on: install the unseen-change wrappers) or let go (off: restore the browser's own). */
  | { t: 'keep_state'; on: boolean };

/**
 * Symbol.for key of the mark the worker's new-document script sets on window in a tab a CDP client
 * holds (background/cdp/native-dialogs.ts); the MAIN-world hooks read and delete it before any page script.
 */
export const NATIVE_DIALOGS_MARK = 'browser-use-ext.native-dialogs';

/** Worker -> every frame's isolated world (chrome.tabs.sendMessage): a CDP client's hold of the tab began or ended. */
export interface NativeDialogsMessage {
  type: 'bux_native_dialogs';
  on: boolean;
}
export const isNativeDialogsMessage = (m: unknown): m is NativeDialogsMessage =>
  typeof m === 'object' &&
  m !== null &&
  (m as { type?: unknown }).type === 'bux_native_dialogs' &&
  typeof (m as { on?: unknown }).on === 'boolean';

/** Wrapper every main -> isolated message travels in; `s` must equal the per-document secret. */
export interface Envelope {
  s: string;
  m: MainToIsolated;
}
