// The one size rule for messages through the bridge, used by the extension's own sends, the CDP endpoint, /agent, /extension
// and the agent client alike (README "Size limits"):
// - a CDP message (a client's command, Chrome's answer or event) is at most CDP_MESSAGE_MAX_BYTES of
//   JSON text;
// - a bridge frame (/agent, /extension) is at most that plus ENVELOPE_HEADROOM_BYTES, the room the
//   relay's own envelope takes (action id, tab, method, an action_result's fields), so a CDP message
//   at its limit always fits the frame that carries it.
// A message over the limit is answered with an error naming the limit; only one too large to read
// at all (over CDP_READ_MAX_BYTES, or a frame over the bridge's limit) closes its connection with
// 1009 "message too big" and a reason that names the limit. Memory stays bounded by the read limit
// per connection: ws refuses a frame by its header length before buffering it.
export const MIB = 1024 * 1024;

/**
 * Largest CDP message carried. 32 MiB of JSON holds what real clients send and get (a full-page
 * screenshot, DOMSnapshot.captureSnapshot of a big page, Fetch.fulfillRequest of a large body),
 * and is what /agent always allowed.
 */
export const CDP_MESSAGE_MAX_BYTES = 32 * MIB;

/** What the relay adds around a CDP message; the largest envelope is a few hundred bytes. */
export const ENVELOPE_HEADROOM_BYTES = 1 * MIB;

/** Largest frame on /agent and /extension: a CDP message at its limit plus the envelope. */
export const BRIDGE_FRAME_MAX_BYTES = CDP_MESSAGE_MAX_BYTES + ENVELOPE_HEADROOM_BYTES;

/**
 * A CDP message up to this size is still read, so its id can be answered with an error naming the
 * limit; past it the connection closes with 1009 (reading it would only cost memory).
 */
export const CDP_READ_MAX_BYTES = 2 * CDP_MESSAGE_MAX_BYTES;

/** RFC 6455 1009: "a message that is too big for it to process". */
export const CLOSE_TOO_BIG = 1009;

/** "32 MiB", "40.5 MiB": sizes as the messages name them. */
export function mib(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
}
