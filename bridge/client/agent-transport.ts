// How an agent client's frames travel to the bridge: a WebSocket to /agent for any agent, or, for an
// agent the bridge runs in its own process (the CDP endpoint), one end of an in-process link
// (bridge/common/in-process-link.ts) that skips the loopback socket. The client speaks the same
// protocol on either (hello, the HMAC challenge, reconnects with its session token); only the road
// differs, so the relay's checks apply to both alike.
import WebSocket from 'ws';

import type { LinkEnd } from '../common/in-process-link';

/** The connection as the client uses it; readyState takes the WebSocket values (1 = open). */
export interface AgentTransport {
  readonly readyState: number;
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Cut without a close handshake. */
  terminate(): void;
  onOpen(f: () => void): void;
  onMessage(f: (text: string) => void): void;
  onClose(f: (code: number, reason: string) => void): void;
  /** Once, as the client listens for a failure to connect. */
  onceError(f: (err: Error) => void): void;
}

export const OPEN = WebSocket.OPEN;
export const CLOSED = WebSocket.CLOSED;

/** Makes a new connection to the bridge (each open, also every reconnect, gets a fresh one). */
export type Dial = () => AgentTransport;

export function webSocketDial(url: string): Dial {
  return () => {
    const ws = new WebSocket(url);
    return {
      get readyState() {
        return ws.readyState;
      },
      send: (text) => ws.send(text),
      close: (code, reason) => ws.close(code, reason),
      terminate: () => ws.terminate(),
      onOpen: (f) => void ws.once('open', f),
      onMessage: (f) => void ws.on('message', (data) => f(data.toString())),
      onClose: (f) => void ws.on('close', (code, reason) => f(code, reason.toString())),
      onceError: (f) => void ws.once('error', f),
    };
  };
}

/** A dial that asks the bridge in this process for a new in-process link each time. */
export function inProcessDial(connect: () => LinkEnd): Dial {
  return () => {
    const end = connect();
    return {
      get readyState() {
        return end.readyState;
      },
      send: (text) => end.send(text),
      close: (code, reason) => end.close(code, reason),
      terminate: () => end.terminate(),
      onOpen: (f) => void end.once('open', f),
      onMessage: (f) => void end.on('message', (text) => f(text)),
      onClose: (f) => void end.on('close', (code, reason) => f(code, reason.toString())),
      onceError: (f) => void end.once('error', f),
    };
  };
}
