// A WebSocket proxy in front of a DevTools endpoint, for the CDP benches: it logs each frame's id,
// method and time (bench/cdp-click-commands.ts), and takes the extension's service worker out of the
// client's view. Playwright connectOverCDP on Chromium's own endpoint auto-attaches every service
// worker and enables Network there (its default context does not block service workers), so every
// frame of our relay's WebSocket became two DevTools events (webSocketFrameSent/Received, the frame's
// text included: a screenshot's whole image) serialized in the extension's process and sent to the
// bench's direct client while our side ran: a cost no user of our endpoint pays (nobody else debugs
// the person's Chrome). Both sides of a comparison go through it, so each pays the same extra hop.
import { WebSocket, WebSocketServer } from 'ws';

export interface Logged {
  dir: 'send' | 'recv';
  at: number;
  id?: number;
  method?: string;
  sessionId?: string;
}

/**
 * A proxy to `upstream`; every frame's id, method and time lands in `log` while `on.value` is true,
 * and `seen.events` counts every event. hideExtensionWorker: the extension's service worker is let go
 * (Runtime.runIfWaitingForDebugger) and detached as soon as Chrome auto-attaches it, unseen by the client.
 */
export async function loggingProxy(
  upstream: string,
  log: Logged[],
  on: { value: boolean } = { value: false },
  seen: { events: number } = { events: 0 },
  hideExtensionWorker = true,
): Promise<{ url: string; close: () => void }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => server.once('listening', () => r()));
  server.on('connection', (down) => {
    const up = new WebSocket(upstream, { perMessageDeflate: false, maxPayload: 1 << 30 });
    const early: string[] = [];
    const hidden = new Set<string>();
    let ownId = 2_000_000_000;
    const note = (dir: Logged['dir'], j: { id?: number; method?: string }) => {
      if (dir === 'recv' && j.method !== undefined) seen.events++;
      if (!on.value) return;
      log.push({ dir, at: performance.now(), ...(j.id === undefined ? {} : { id: j.id }), ...(j.method ? { method: j.method } : {}) });
    };
    up.on('open', () => early.splice(0).forEach((m) => up.send(m)));
    down.on('message', (d) => {
      const text = String(d);
      note('send', JSON.parse(text) as { id?: number; method?: string });
      if (up.readyState === WebSocket.OPEN) up.send(text);
      else early.push(text);
    });
    up.on('message', (d) => {
      const text = String(d);
      const j = JSON.parse(text) as { id?: number; method?: string; sessionId?: string; params?: Record<string, unknown> };
      if (hideExtensionWorker) {
        if ((j.id !== undefined && j.id >= 2_000_000_000) || (j.sessionId !== undefined && hidden.has(j.sessionId))) return;
        const info = j.params?.['targetInfo'] as { type?: string; url?: string } | undefined;
        const child = j.params?.['sessionId'];
        if (j.method === 'Target.attachedToTarget' && info?.type === 'service_worker' && info.url?.startsWith('chrome-extension://')) {
          if (typeof child === 'string') {
            hidden.add(child);
            up.send(JSON.stringify({ id: ownId++, method: 'Runtime.runIfWaitingForDebugger', sessionId: child }));
            const detach = { id: ownId++, method: 'Target.detachFromTarget', params: { sessionId: child } };
            up.send(JSON.stringify(j.sessionId === undefined ? detach : { ...detach, sessionId: j.sessionId }));
          }
          return;
        }
      }
      note('recv', j);
      down.send(text);
    });
    up.on('close', () => down.close());
    down.on('close', () => up.close());
  });
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}${new URL(upstream).pathname}`, close: () => server.close() };
}
