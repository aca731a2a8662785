// A CDP message over the size limit (bridge/common/message-limits.ts) is answered, not relayed: the
// client gets a CDP error for its command's id naming the limit, and the connection goes on. The id
// (and sessionId, method) are read by a scan of the top-level object that skips every value it does
// not need, so a 40 MB message costs no JSON.parse of its 40 MB.
import type { RawData } from 'ws';

import { CDP_MESSAGE_MAX_BYTES, CDP_READ_MAX_BYTES, mib } from '../../common/message-limits';
import { SERVER_ERROR } from './cdp-protocol';

/** The close reason of a message too big to read at all (ws closes it with 1009). */
export const TOO_BIG_TO_READ = `a CDP message is at most ${mib(CDP_MESSAGE_MAX_BYTES)}; this one was over ${mib(CDP_READ_MAX_BYTES)} and was not read`;

export function rawBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}

/** The CDP error answer to a message over the limit, or null when it fits. */
export function oversizeAnswer(data: Buffer): string | null {
  if (data.length <= CDP_MESSAGE_MAX_BYTES) return null;
  const { id, method, sessionId } = topLevel(data);
  const what = method === undefined ? 'This message' : `This ${method} command`;
  const error = {
    code: SERVER_ERROR,
    message: `${what} is ${mib(data.length)}, more than the ${mib(CDP_MESSAGE_MAX_BYTES)} a CDP message through browser-use-ext may be; it was not sent to the browser. Send less in one message: split the data, or fetch it in parts (IO.read, one response body at a time).`,
  };
  return JSON.stringify(sessionId === undefined ? { id: id ?? 0, error } : { id: id ?? 0, error, sessionId });
}

/** id, method and sessionId of a JSON object, from its top level only; a field it cannot read is left out. */
export function topLevel(b: Buffer): { id?: number; method?: string; sessionId?: string } {
  const out: { id?: number; method?: string; sessionId?: string } = {};
  let i = skipSpace(b, 0);
  if (b[i] !== 0x7b) return out;
  i += 1;
  for (;;) {
    i = skipSpace(b, i);
    if (b[i] !== 0x22) return out;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return out;
    const key = keyEnd - i <= 64 ? b.toString('utf8', i + 1, keyEnd) : '';
    i = skipSpace(b, keyEnd + 1);
    if (b[i] !== 0x3a) return out;
    i = skipSpace(b, i + 1);
    const end = valueEnd(b, i);
    if (end < 0) return out;
    if ((key === 'id' || key === 'method' || key === 'sessionId') && end - i <= 1024) {
      let v: unknown;
      try {
        v = JSON.parse(b.toString('utf8', i, end));
      } catch {
        v = undefined;
      }
      if (key === 'id' && typeof v === 'number' && Number.isInteger(v)) out.id = v;
      if (key === 'method' && typeof v === 'string') out.method = v;
      if (key === 'sessionId' && typeof v === 'string') out.sessionId = v;
    }
    i = skipSpace(b, end);
    if (b[i] !== 0x2c) return out;
    i += 1;
  }
}

function skipSpace(b: Buffer, i: number): number {
  let j = i;
  while (b[j] === 0x20 || b[j] === 0x0a || b[j] === 0x0d || b[j] === 0x09) j += 1;
  return j;
}

/** Index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(b: Buffer, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = b.indexOf(0x22, from);
    if (q < 0) return -1;
    let slashes = 0;
    while (b[q - 1 - slashes] === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

/** Index just past the value starting at i, or -1 when it does not end. */
function valueEnd(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x22) {
    const e = stringEnd(b, i);
    return e < 0 ? -1 : e + 1;
  }
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const x = b[j];
      if (x === 0x22) {
        j = stringEnd(b, j);
        if (j < 0) return -1;
      } else if (x === 0x7b || x === 0x5b) depth += 1;
      else if (x === 0x7d || x === 0x5d) {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (
    j < b.length &&
    b[j] !== 0x2c &&
    b[j] !== 0x7d &&
    b[j] !== 0x5d &&
    b[j] !== 0x20 &&
    b[j] !== 0x0a &&
    b[j] !== 0x0d &&
    b[j] !== 0x09
  )
    j += 1;
  return j > i ? j : -1;
}
