// How long a state waits for its iframes ("frames that do not answer never hold a state
// for more than a small, documented budget"; README "Page state" > "Frames: the wait budget").
//
// A child frame is asked twice: first which iframe element it sits under (the token probe, which
// doubles as a liveness check), then for its snapshot. A frame that is still loading or whose
// content script never replies (a busy or frozen cross-origin ad) fails the probe; only frames
// that answered the probe are waited for, and only as long as a walk plausibly takes.
import type { FrameInfo } from '../../../../schemas/generated/protocol';

/** A child frame must answer the token probe within this (measured: a live frame answers in 1-5 ms). */
export const PROBE_BUDGET_MS = 250;
/** A frame that answered the probe must deliver its snapshot within this (a walk of a large page). */
export const SNAPSHOT_BUDGET_MS = 1500;
/** The content script (content/snapshot/index.ts) waits 200 ms for its parent's token message before answering "none". */

export type LeftOutReason = NonNullable<FrameInfo['reason']>;

/** Why a frame was left out, for FrameInfo.reason/message (the message says what to do next). */
export function leftOutMessage(reason: LeftOutReason, detail?: string): string {
  switch (reason) {
    case 'timeout':
      return `This frame's contents are missing: its document did not answer within ${detail ?? `${PROBE_BUDGET_MS} ms`} (still loading, or its page is busy). Take a new state once it has loaded.`;
    case 'not_scriptable':
      return `This frame's contents are missing: the extension cannot reach its document${detail ? ` (${detail})` : ''}. Pages Chrome does not let extensions script stay unreachable; if it is still loading, take a new state later.`;
    case 'not_identified':
      return "This frame's contents are missing: no document answered for this iframe element (not loaded yet, or a page extensions may not script). Take a new state once it has loaded.";
    case 'too_deep':
      return `This frame's contents are missing: it is nested deeper than ${detail ?? 'the frame depth limit'}.`;
  }
}
