// The worker's reconnect loop (connection/bridge-connection.ts) with a fake chrome and a fake
// WebSocket: a try whose socket Chrome keeps CONNECTING is given up and made again (a wake meanwhile
// makes none), a failed or empty read of the settings does not end the loop, and the try log
// (globalThis.__buxBridgeTries, try-log.ts) says what happened to each try. Each stall used to leave
// the worker with no retry due: after a failed or empty read only a wake brought it back (the 30 s
// alarm when nothing happens in the browser), and a try stuck CONNECTING not even that (measured with
// the old build: still away 70 s after the bridge listened again).
import { expect } from 'chai';

type Conn = typeof import('../../extension/src/background/connection/bridge-connection');
type Log = typeof import('../../extension/src/background/connection/try-log');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A socket that does only what the test tells it: stays CONNECTING until refused. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closedByWorker = false;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(): void {}
  close(): void {
    this.closedByWorker = true;
    this.end(1006);
  }
  /** Nothing listens: the connection fails, as Chrome reports it. */
  refuse(): void {
    this.end(1006);
  }
  private end(code: number): void {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    setTimeout(() => this.onclose?.({ code, reason: '' }), 0);
  }
}

let failReads = 0;
let local: Record<string, unknown> = {};
/** What config.json next to the worker says (the harness ships the secret there); null: its fetch fails. */
let shipped: Record<string, unknown> | null = null;
const fakeChrome = {
  storage: {
    local: {
      get: async (keys: string | string[]) => {
        if (failReads > 0) {
          failReads--;
          throw new Error('storage unavailable (test)');
        }
        return Object.fromEntries((Array.isArray(keys) ? keys : [keys]).filter((k) => k in local).map((k) => [k, local[k]]));
      },
      set: async () => undefined,
    },
    session: { set: async () => undefined },
    onChanged: { addListener: () => undefined },
  },
  runtime: { id: 'unit', getManifest: () => ({ version: '0.0.0' }), getURL: (p: string) => `http://127.0.0.1:9/${p}` },
};

describe('worker reconnect loop: every try bounded, never stopped (fake chrome and WebSocket)', function () {
  this.timeout(20_000);
  let conn: Conn;
  let log: Log;
  const saved = { chrome: undefined as unknown, WebSocket: undefined as unknown, fetch: undefined as unknown, warn: console.warn };
  const g = globalThis as unknown as Record<string, unknown>;

  before(async () => {
    saved.chrome = g['chrome'];
    saved.WebSocket = g['WebSocket'];
    saved.fetch = g['fetch'];
    g['chrome'] = fakeChrome;
    g['WebSocket'] = FakeSocket;
    // config.json as shipped (or its fetch failing); the status line's /healthz probe: nothing answers.
    g['fetch'] = (url: string) =>
      url.endsWith('/config.json') && shipped ? Promise.resolve(Response.json(shipped)) : Promise.reject(new Error('no answer (test)'));
    console.warn = () => undefined; // the worker's lines for the person debugging it
    conn = await import('../../extension/src/background/connection/bridge-connection');
    log = await import('../../extension/src/background/connection/try-log');
  });
  after(() => {
    g['chrome'] = saved.chrome;
    g['WebSocket'] = saved.WebSocket;
    g['fetch'] = saved.fetch;
    console.warn = saved.warn;
  });
  beforeEach(() => {
    FakeSocket.made = [];
    failReads = 0;
    local = { bridge_url: 'ws://127.0.0.1:9/extension', extension_secret: 'unit-secret' };
    shipped = null;
  });

  /** Waits until `n` sockets were made, up to ms; returns how many were. */
  const socketsWithin = async (n: number, ms: number) => {
    const until = Date.now() + ms;
    while (FakeSocket.made.length < n && Date.now() < until) await sleep(10);
    return FakeSocket.made.length;
  };

  it('gives up a try still CONNECTING after the connect limit and makes the next one; a wake meanwhile makes none', async () => {
    const c = new conn.BridgeConnection(() => undefined);
    await c.ensureConnected();
    expect(FakeSocket.made.length).to.equal(1);
    const wakesBefore = log.tryLog().wakesWhileTrying;
    await c.ensureConnected(); // a wake while the try is under way
    expect(FakeSocket.made.length, 'a wake while a try is under way').to.equal(1);
    expect(log.tryLog().wakesWhileTrying).to.equal(wakesBefore + 1);
    // Old code: the socket stayed CONNECTING (Chrome: up to 240 s) and no other try was ever made.
    expect(await socketsWithin(2, conn.CONNECT_TIMEOUT_MS + 2000), 'a new try after the connect limit').to.equal(2);
    expect(FakeSocket.made[0]?.closedByWorker, 'the stuck socket was closed').to.equal(true);
    const given = log.tryLog().tries.find((t) => t.outcome === 'connect_timeout');
    expect(given, JSON.stringify(log.tryLog().tries)).to.not.equal(undefined);
    expect(given?.fast, 'a fast retry follows: nothing answered, as when nothing listens').to.equal(true);
    expect(given?.nextMs).to.equal(conn.FAST_RETRY_MS);
    FakeSocket.made[1]?.refuse();
    await socketsWithin(3, 1000);
    c.stopForTests();
  });

  it('keeps trying after the settings could not be read', async () => {
    const c = new conn.BridgeConnection(() => undefined);
    failReads = 1;
    // Old code: this rejected with the retry timer already cleared, and no try was ever made again.
    await c.ensureConnected();
    expect(await socketsWithin(1, 2000), 'a try after the failed read').to.equal(1);
    const failed = log.tryLog().tries.find((t) => t.note?.startsWith('settings unreadable'));
    expect(failed?.outcome, JSON.stringify(log.tryLog().tries.slice(-3))).to.equal('not_made');
    expect(failed?.nextMs).to.equal(conn.FAST_RETRY_MS);
    FakeSocket.made[0]?.refuse();
    // A refused try is logged with its outcome and the fast retry chosen next.
    expect(await socketsWithin(2, 2000)).to.equal(2);
    const refused = log
      .tryLog()
      .tries.filter((t) => t.outcome === 'refused')
      .at(-1);
    expect(refused?.code).to.equal(1006);
    expect(refused?.fast).to.equal(true);
    c.stopForTests();
  });

  it('reads the settings again when the pairing secret could not be read once (the shipped config.json failing)', async () => {
    local = {}; // the harness's way: the secret only in config.json
    const c = new conn.BridgeConnection(() => undefined);
    await c.ensureConnected(); // config.json's fetch fails this once: no secret, "not paired"
    const unpaired = log.tryLog().tries.at(-1);
    expect(unpaired?.note).to.equal('not paired');
    expect(FakeSocket.made.length).to.equal(0);
    shipped = { bridge_url: 'ws://127.0.0.1:9/extension', extension_secret: 'unit-secret' };
    // Old code: the loop ended at "not paired"; only a wake (the 30 s alarm) tried again.
    expect(await socketsWithin(1, 2000), 'a try once the secret reads again').to.equal(1);
    expect(unpaired?.nextMs).to.equal(conn.FAST_RETRY_MS);
    c.stopForTests();
  });
});
