// The worker's log of its tries to reach the bridge: when each began, what started it, how far it
// got (socket open, challenge, hello_ack), how it ended and when the next one was due. A reconnect
// that took 30 s once on a loaded CI machine (test/soak/fault-suite.spec.ts) left no trace of why;
// this is the trace. Kept in memory only (the last MAX_TRIES, no storage write per try: a dead bridge
// is tried 4 times a second) and readable from DevTools or a test as globalThis.__buxBridgeTries,
// with the time this worker started (a worker restarted in between starts a new log).

/** How one try ended. pending: not ended yet. */
export type TryOutcome =
  /** hello_ack came: connected. */
  | 'connected'
  /** The socket closed before it opened: nothing listening, or the upgrade refused. */
  | 'refused'
  /** The socket opened and closed before hello_ack (refused handshake, bridge gone). */
  | 'closed_in_handshake'
  /** A working connection closed. */
  | 'dropped'
  /** No open within the connect limit: given up and closed by the worker. */
  | 'connect_timeout'
  /** Open, but no hello_ack within the handshake limit: given up and closed by the worker. */
  | 'handshake_timeout'
  /** Replaced by new settings (reconnectNow). */
  | 'replaced'
  /** Never made: not paired, or a bad URL. */
  | 'not_made'
  | 'pending';

export interface BridgeTry {
  /** Date.now() when the try began (its socket was made). */
  at: number;
  /** What started it: the retry timer, a wake (alarm, wake document, browser event), new settings. */
  by: string;
  outcome: TryOutcome;
  /** ms after `at` when the socket opened, the challenge came, hello_ack came, the socket closed. */
  openMs?: number;
  challengeMs?: number;
  readyMs?: number;
  endMs?: number;
  code?: number;
  reason?: string;
  /** The delay the worker then chose before the next try, and whether it was a fast retry. */
  nextMs?: number;
  fast?: boolean;
  /** Why it was given up, a refusal's error code, ... */
  note?: string;
}

export interface TryLog {
  /** Date.now() when this worker's script ran. */
  workerStarted: number;
  tries: BridgeTry[];
  /** Wakes that found a try under way and so started none (counted, not logged one by one). */
  wakesWhileTrying: number;
}

const MAX_TRIES = 200;

const log: TryLog = { workerStarted: Date.now(), tries: [], wakesWhileTrying: 0 };
(globalThis as { __buxBridgeTries?: TryLog }).__buxBridgeTries = log;

/** Starts the record of a new try (the oldest beyond MAX_TRIES is dropped). */
export function beginTry(by: string): BridgeTry {
  const t: BridgeTry = { at: Date.now(), by, outcome: 'pending' };
  log.tries.push(t);
  if (log.tries.length > MAX_TRIES) log.tries.splice(0, log.tries.length - MAX_TRIES);
  return t;
}

/** ms since the try began. */
export function since(t: BridgeTry): number {
  return Date.now() - t.at;
}

export function noteWakeWhileTrying(): void {
  log.wakesWhileTrying++;
}

/** The log itself (tests in this process). */
export function tryLog(): TryLog {
  return log;
}
