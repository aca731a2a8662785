// Messages between the service worker and the content script (chrome.runtime messaging, never the
// wire). Payload types are the generated protocol types, so nothing here re-declares the protocol.
import type { ErrorInfo, GetStateParams, SimplifiedState } from '../../../schemas/generated/protocol';
import type { ActionName } from '../../../schemas/generated/registry';
import type { FramePatch } from './frame-patch';
import type { FrameSame, FrameSnapshot } from './frame-snapshot';
import type { DownloadRequest } from './settle-messages';

export const CONTENT_CHANNEL = 'bux';

export interface RunActionRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'run_action';
  action: ActionName;
  params: unknown;
  /**
   * Also answer with this frame's snapshot taken right after the action (frame), saving the worker a second round trip when it
   * collects the new state at once (settling off).
   */
  snapshot?: GetStateParams;
  /** Also answer with the blob:/data: downloads the page asked for (settling off: no drain carries them). */
  downloads?: true;
}

/** Snapshot of this frame only; the worker stitches frames into one state. */
export interface SnapshotRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'snapshot';
  params: GetStateParams;
  /** Child frames: the top window's viewport (browser_use's dom_tree rules measure iframe contents against it). */
  top_viewport?: { width: number; height: number };
  /** Frame matching: answer only with the frame token the parent posted (result.token), waiting briefly for one of these. */
  token_probe?: string[];
  /**
   * The kept_id of this frame's answer the worker holds for these parameters: when the answer is that
   * one, answer `same` instead of `frame`; when the page changed since, `patch` (edits to that one)
   * where most of it is unchanged.
   */
  held?: string;
  /**
   * Asked ahead of need (background/state/frame-peek.ts): answer without making this answer the
   * document's previous state (what is_new compares with) until a later request says it was used.
   */
  peek?: true;
  /** What became of this frame's last peeked answer: the state used it (now the previous state) or left it out. */
  peek_outcome?: 'used' | 'left_out';
}

export interface PingRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'ping';
}

/**
 * Trusted mode (background/page-watch/trusted-input.ts): resolve the target and run the actionability checks
 * without dispatching any synthetic event, optionally focusing it; answers with result
 * {element_id, x, y, focused, value?} (x/y: the action point in this frame's viewport).
 */
export interface PrepareRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'prepare';
  checks: 'pointer' | 'hover' | 'edit' | 'none';
  focus: boolean;
  params: unknown;
  /** fill: the value, validated page-side; value types (date, range, color...) are set there (result.done). */
  fill?: string;
  /** type: put the caret at the end when the field gets focus now (one already focused keeps its caret). */
  caret?: 'end';
  /** hover without trusted_input: a real pointer only where the page has :hover rules for the element
   * (CSS :hover needs one); else the synthetic move is made right there (result.done, with its message). */
  css_hover?: { modifiers: string[] };
}

/** Trusted mode: the current value of an element (after trusted typing), never a password's. */
export interface ReadValueRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'read_value';
  element_id: string;
}

/**
 * Draw (draw: true) or remove browser_use's numbered boxes around this frame's indexed elements of its latest dom_tree; indexes are the
 * tab-wide ones, in this frame's local highlight order.
 */
export interface HighlightRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'highlight';
  draw: boolean;
  indexes?: number[];
}

/**
 * Trusted mode, to the top frame: a subframe's trusted pointer input is about to go in at this
 * top-level viewport point. The controlled-tab bar lives in the top frame only, so the subframe's own
 * preparation cannot move it; the top frame steps it aside as it does for its own points.
 */
export interface BarAsideRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'bar_aside';
  x: number;
  y: number;
}

export type ContentRequest =
  RunActionRequest | SnapshotRequest | PingRequest | PrepareRequest | ReadValueRequest | HighlightRequest | BarAsideRequest;

/**
 * Answer to run_action (no state: the worker collects it after the action) or snapshot (frame: the frame snapshot, serialized once by
 * Chrome's messaging).
 */
export type RunActionResponse =
  | {
      ok: true;
      message: string;
      result: Record<string, unknown>;
      state?: SimplifiedState;
      frame?: FrameSnapshot;
      /** Instead of frame: the frame is the kept answer the worker named in `held` (only what reads fresh crosses). */
      same?: FrameSame;
      /** Instead of frame: the frame as edits to the kept answer the worker named in `held` (shared/frame-patch.ts). */
      patch?: FramePatch;
      download_requests?: DownloadRequest[];
      /** A click landed in a link to another document: a download may follow it (background/page-watch/downloads.ts). */
      link?: true;
    }
  | { ok: false; error: ErrorInfo };

/** The worker's long-lived port to a frame's content script (background/connection/content-channel.ts). */
export const CONTENT_PORT = 'bux-port';

/**
 * On that port: the content script's hello when it takes the port, requests, and their answers by id.
 * progress: how much of a typing action (type, fill, press, send_keys) went into the page so far,
 * posted before each pause and when the keys are all in; for a pointer action (click, double_click,
 * check, uncheck, hover), 1 of 1 right before its input is dispatched. The document can die in a pause (the page
 * navigates or its tab closes) and never answer: the worker then knows how far it got.
 */
export type PortMessage =
  | { kind: 'hello' }
  | { kind: 'request'; id: number; request: ContentRequest }
  | { kind: 'progress'; id: number; progress: InputProgress }
  | { kind: 'answer'; id: number; response: RunActionResponse };

/** Characters (keys for press) of a typing action that went into the page, of how many. */
export interface InputProgress {
  done: number;
  total: number;
}

export function isContentRequest(m: unknown): m is ContentRequest {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CONTENT_CHANNEL;
}
