// The DevTools protocol as the relay speaks it to a client: one command as it arrived, Chrome's error
// shapes and wording (clients match them), and typed reads of what a client or a tab sent. The names
// come from the devtools-protocol package (type-only: nothing of it ships), so a misspelt parameter
// is a compile error; the values stay `unknown` until checked, because a client's JSON is untrusted
// (https://chromedevtools.github.io/devtools-protocol/ is the contract, not a promise any client keeps).
import type { Protocol } from 'devtools-protocol';
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping';

import { STOPPED_CLIENT_MESSAGE } from './stopped-url';

/** A CDP error as Chrome sends it in {id, error}. */
export interface CdpError {
  code: number;
  message: string;
  data?: string;
}

export type Params = Record<string, unknown>;

/** One command from the client; sessionId undefined: the connection's own (browser or page) session. */
export interface CdpCommand {
  id: number;
  method: string;
  params: Params;
  sessionId: string | undefined;
}

export type CommandName = keyof ProtocolMapping.Commands;
export type EventName = keyof ProtocolMapping.Events;

/** Field names from the protocol, values unchecked: what an untrusted peer sent under those names. */
export type Untrusted<T> = { readonly [K in keyof T]?: unknown };

/** The one params object of a command or event (optional in some), or none. */
type FirstOr<T extends readonly unknown[]> = T extends readonly [] ? Record<never, never> : NonNullable<T[0]>;
export type CommandParams<M extends CommandName> = Untrusted<FirstOr<ProtocolMapping.Commands[M]['paramsType']>>;
export type EventParams<E extends EventName> = Untrusted<FirstOr<ProtocolMapping.Events[E]>>;
export type CommandResult<M extends CommandName> = ProtocolMapping.Commands[M]['returnType'];

/** A command's params under the protocol's names for `method` (the caller has matched the method). */
export function paramsOf<M extends CommandName>(c: CdpCommand, _method: M): CommandParams<M> {
  return c.params as CommandParams<M>;
}

/** An event's params under the protocol's names for `method`. */
export function eventParams<E extends EventName>(params: Params, _method: E): EventParams<E> {
  return params as EventParams<E>;
}

/** A nested protocol object, when `v` is one (else an empty one: every field reads undefined). */
export function objectOf<T>(v: unknown): Untrusted<T> {
  return isObject(v) ? (v as Untrusted<T>) : {};
}

export type TargetInfo = Protocol.Target.TargetInfo;

export const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Chrome's "server error" code, used for every refusal and relay failure. */
export const SERVER_ERROR = -32000;

/** Chrome's answer to a method it does not know: {code: -32601, message: "'X' wasn't found"}. */
export function methodNotFound(method: string): CdpError {
  return { code: -32601, message: `'${method}' wasn't found` };
}

/** Chrome's answers to bad target and session ids (browser_use matches -32001 and this wording). */
export const NO_TARGET: CdpError = {
  code: -32602,
  // Chrome's words first (clients match them), then why: this endpoint shows only the client's own tabs.
  message:
    'No target with given id found: this client reaches only the tabs it holds, and this one is closed, held by another client or agent, or was never handed to it. Target.getTargets lists the tabs it holds; Target.createTarget opens one.',
};
export const NO_SESSION: CdpError = { code: -32001, message: 'Session with given id not found.' };
/** Chrome's answer to detaching a session that is not there (or not the caller's). */
export const NO_SESSION_GIVEN: CdpError = { code: -32602, message: 'No session with given id' };

export function refused(method: string, reason: string): CdpError {
  return { code: SERVER_ERROR, message: `'${method}' is not available through browser-use-ext: ${reason}` };
}

export function notFlat(): CdpError {
  return {
    code: SERVER_ERROR,
    message:
      'Only flatten protocol is supported (pass flatten: true): this endpoint relays flat sessions only, each command carrying its sessionId.',
  };
}

/** The answer to every command after the person stopped this client (its URL is refused from then on). */
export const STOPPED_MESSAGE = STOPPED_CLIENT_MESSAGE;

/** A client message Chrome would not run: the error it answers (id 0 when the message has none). */
export interface Malformed {
  malformed: true;
  id: number;
  sessionId: string | undefined;
  error: CdpError;
}

function malformed(id: number, sessionId: string | undefined, error: CdpError): Malformed {
  return { malformed: true, id, sessionId, error };
}

/** A parsed client message (the command itself, no wrapper: this runs once per command), or why not. */
export function parseCommand(text: string): CdpCommand | Malformed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return malformed(0, undefined, { code: -32700, message: 'Message must be a valid JSON' });
  }
  if (!isObject(v)) return malformed(0, undefined, { code: -32600, message: 'Message must be an object' });
  const m = v as Untrusted<{ id: number; method: string; params: Params; sessionId: string }>;
  const sessionId = typeof m.sessionId === 'string' ? m.sessionId : undefined;
  const id = m.id;
  if (typeof id !== 'number' || !Number.isInteger(id))
    return malformed(0, sessionId, { code: -32600, message: "Message must have integer 'id' property" });
  if (typeof m.method !== 'string')
    return malformed(id, sessionId, { code: -32600, message: "Message must have string 'method' property" });
  const params = m.params ?? {};
  if (!isObject(params)) return malformed(id, sessionId, { code: -32602, message: 'Invalid parameters', data: 'params: object expected' });
  return { id, method: m.method, params, sessionId };
}

/** Chrome's TargetFilter: the first entry whose type matches (or has none) decides; no match excludes. */
export interface TargetFilterEntry {
  type?: string;
  exclude?: boolean;
}

/** Chrome's default when a command has no filter: everything but the browser and tab targets. */
const DEFAULT_FILTER: TargetFilterEntry[] = [{ type: 'browser', exclude: true }, { type: 'tab', exclude: true }, {}];

export function parseFilter(value: unknown): TargetFilterEntry[] {
  if (!Array.isArray(value)) return DEFAULT_FILTER;
  const entries: TargetFilterEntry[] = [];
  for (const v of value as unknown[]) {
    if (typeof v !== 'object' || v === null) continue;
    const e = v as Untrusted<Protocol.Target.FilterEntry>;
    const entry: TargetFilterEntry = {};
    if (typeof e.type === 'string') entry.type = e.type;
    if (e.exclude === true) entry.exclude = true;
    entries.push(entry);
  }
  return entries;
}

export function filterAccepts(filter: TargetFilterEntry[], type: string): boolean {
  for (const e of filter) if (e.type === undefined || e.type === type) return e.exclude !== true;
  return false;
}
