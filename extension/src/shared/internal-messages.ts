// Messages between the service worker and the content script (chrome.runtime messaging, never the
// wire). Payload types are the generated protocol types, so nothing here re-declares the protocol.
import type { ErrorInfo, GetStateParams, SimplifiedState } from '../../../schemas/generated/protocol';
import type { ActionName } from '../../../schemas/generated/registry';
import type { FrameSnapshot } from './frame-snapshot';

export const CONTENT_CHANNEL = 'bux';

export interface RunActionRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'run_action';
  action: ActionName;
  params: unknown;
}

/** Snapshot of this frame only; the worker stitches frames into one state. */
export interface SnapshotRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'snapshot';
  params: GetStateParams;
  /** Frame matching: answer only with the frame token the parent posted (result.token), waiting briefly for one of these. */
  token_probe?: string[];
}

export interface PingRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'ping';
}

export type ContentRequest = RunActionRequest | SnapshotRequest | PingRequest;

/** Answer to run_action (no state: the worker collects it after the action) or snapshot (frame_json: the frame snapshot as JSON text, since one string crosses the message channel far faster than a large object graph). */
export type RunActionResponse =
  | { ok: true; message: string; result: Record<string, unknown>; state?: SimplifiedState; frame?: FrameSnapshot; frame_json?: string }
  | { ok: false; error: ErrorInfo };

export function isContentRequest(m: unknown): m is ContentRequest {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CONTENT_CHANNEL;
}
