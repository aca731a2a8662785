// Backends written from the seed documents alone (no import from the product): each is the
// WebSocket *server* its seed describes, which an extension dials. Used by the seed tests.
import type { AddressInfo } from 'node:net';

import { type WebSocket, WebSocketServer } from 'ws';

/** Seed 001's backend: sends AgentCommand {id, type, params} and awaits AgentResponse {id, success, data|error}. */
export class Seed001Backend {
  private wss!: WebSocketServer;
  private socket: WebSocket | null = null;
  private waiters = new Map<string, (r: Record<string, unknown>) => void>();
  private connectedWaiters: (() => void)[] = [];
  readonly frames: Record<string, unknown>[] = [];
  private n = 0;
  url = '';

  async start(port = 0): Promise<this> {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port });
    await new Promise<void>((r) => this.wss.once('listening', () => r()));
    this.url = `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}`;
    this.wss.on('connection', (ws) => {
      this.socket = ws;
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as Record<string, unknown>;
        this.frames.push(m);
        const w = typeof m['id'] === 'string' ? this.waiters.get(m['id']) : undefined;
        if (w) w(m);
        else if (m['type'] === 'pong') this.waiters.get('pong')?.(m);
      });
      for (const w of this.connectedWaiters.splice(0)) w();
    });
    return this;
  }

  waitConnected(): Promise<void> {
    if (this.socket) return Promise.resolve();
    return new Promise((r) => this.connectedWaiters.push(r));
  }

  send(command: { type: string; params?: Record<string, unknown> }): Promise<Record<string, unknown>> {
    const id = `cmd-${++this.n}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no AgentResponse to ${JSON.stringify(command)}`)), 30_000);
      this.waiters.set(id, (r) => {
        clearTimeout(timer);
        this.waiters.delete(id);
        resolve(r);
      });
      this.socket?.send(JSON.stringify({ id, ...command }));
    });
  }

  sendRaw(text: string): void {
    this.socket?.send(text);
  }

  ping(): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiters.set('pong', (m) => {
        this.waiters.delete('pong');
        resolve(m);
      });
      this.socket?.send(JSON.stringify({ type: 'ping' }));
    });
  }

  /** Open connections from extensions (connectors) right now. */
  get clientCount(): number {
    return [...this.wss.clients].filter((c) => c.readyState === c.OPEN).length;
  }

  dropClient(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}

export interface Seed000Node {
  id: number;
  role: string;
  name: string;
  tag: string;
  bounds: { x: number; y: number; width: number; height: number };
}

/** Seed 000's backend: receives Snapshot / ActionResult WsMessages, sends ActionCommand. */
export class Seed000Backend {
  private wss!: WebSocketServer;
  private socket: WebSocket | null = null;
  readonly inbox: { type: string; data: Record<string, unknown> }[] = [];
  private listeners: (() => void)[] = [];
  url = '';

  async start(): Promise<this> {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => this.wss.once('listening', () => r()));
    this.url = `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/ws`;
    this.wss.on('connection', (ws) => {
      this.socket = ws;
      ws.on('message', (d) => {
        this.inbox.push(JSON.parse(d.toString()) as { type: string; data: Record<string, unknown> });
        for (const l of this.listeners.splice(0)) l();
      });
    });
    return this;
  }

  /** Waits for the next message of this type (consumes messages before it). */
  async next(type: 'Snapshot' | 'ActionResult', timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.inbox.findIndex((m) => m.type === type);
      if (i >= 0) {
        const m = this.inbox.splice(0, i + 1)[i] as { data: Record<string, unknown> };
        return m.data;
      }
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        this.listeners.push(r);
        setTimeout(r, 200);
      });
    }
  }

  get clientCount(): number {
    return [...this.wss.clients].filter((c) => c.readyState === c.OPEN).length;
  }

  command(data: Record<string, unknown>): void {
    this.socket?.send(JSON.stringify({ type: 'ActionCommand', data }));
  }

  async close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}
