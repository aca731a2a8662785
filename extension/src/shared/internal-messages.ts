// Messages between the service worker and the content script (chrome.runtime messaging, never the
// wire). Payload types are the generated protocol types, so nothing here re-declares the protocol.
import type { ErrorInfo, SimplifiedState } from '../../../schemas/generated/protocol';
import type { ActionName } from '../../../schemas/generated/registry';

export const CONTENT_CHANNEL = 'bux';

export interface RunActionRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'run_action';
  action: ActionName;
  params: unknown;
}

export interface PingRequest {
  channel: typeof CONTENT_CHANNEL;
  kind: 'ping';
}

export type ContentRequest = RunActionRequest | PingRequest;

export type RunActionResponse =
  | { ok: true; message: string; result: Record<string, unknown>; state: SimplifiedState }
  | { ok: false; error: ErrorInfo; state: SimplifiedState | null };

export function isContentRequest(m: unknown): m is ContentRequest {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CONTENT_CHANNEL;
}
