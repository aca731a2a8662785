// Worker <-> isolated settle script (content/early.ts) messages, on their own channel so they never
// collide with the content script's action/snapshot channel. Never part of the wire protocol.
import type { ApiCall, DialogRecord } from '../../../schemas/generated/protocol';

export const SETTLE_CHANNEL = 'bux-settle';

export interface SettleWaitParams {
  quiet_ms: number;
  dom_cap_ms: number;
  network_cap_ms: number;
}

export type SettleRequest =
  | { channel: typeof SETTLE_CHANNEL; kind: 'begin' }
  | { channel: typeof SETTLE_CHANNEL; kind: 'wait'; params: SettleWaitParams }
  /** Wait for the first DOM change (then quiet) up to watch_ms. */
  | { channel: typeof SETTLE_CHANNEL; kind: 'watch'; watch_ms: number; params: SettleWaitParams }
  | { channel: typeof SETTLE_CHANNEL; kind: 'network_idle'; idle_ms: number; timeout_ms: number }
  /** api_activity and dialogs since the last drain (the last state). */
  | { channel: typeof SETTLE_CHANNEL; kind: 'drain' }
  /** The blob:/data: downloads the page asked for since the last drain, taken out of it (an action without settling). */
  | { channel: typeof SETTLE_CHANNEL; kind: 'download_requests' };

/**
 * Isolated-world window property (never the page's) where early.ts hands content.js its taker of the
 * page's download requests: one frame's two scripts share the isolated world's globals.
 */
export const TAKE_DOWNLOAD_REQUESTS = '__buxTakeDownloadRequests';

/** A blob:/data: download the page asked for (main-world/download-requests.ts): the file name it gave, and when (ms since epoch). */
export interface DownloadRequest {
  name: string;
  at: number;
}

export interface SettleReport {
  /** A DOM mutation happened in this document since `begin`. */
  dom_changed: boolean;
  /** Anything observable happened since `begin`: mutation, input/change event, focus moved into a text field, request, dialog. */
  effects: boolean;
  settled: boolean;
  dom_quiet_ms: number;
  network_idle_ms: number;
  pending: number;
}

export interface Drained {
  api_activity: ApiCall[];
  dialogs: DialogRecord[];
  dialog_count: number;
  pending: ApiCall[];
  /** File names of the blob:/data: downloads the page asked for (main-world/download-requests.ts); absent when none. */
  download_requests?: DownloadRequest[];
}

export type SettleResponse =
  | { ok: true; kind: 'begin' }
  | { ok: true; kind: 'wait'; report: SettleReport; drained: Drained }
  | { ok: true; kind: 'watch'; changed: boolean; watched_ms: number; report: SettleReport; drained: Drained }
  | { ok: true; kind: 'network_idle'; idle: boolean; waited_ms: number; pending: ApiCall[] }
  | { ok: true; kind: 'drain'; drained: Drained }
  | { ok: true; kind: 'download_requests'; requests: DownloadRequest[] };

export function isSettleRequest(m: unknown): m is SettleRequest {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === SETTLE_CHANNEL;
}
