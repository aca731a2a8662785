// Bench-only timestamps of a CDP client's command on its way through the service worker (bench/cdp.ts
// turns them on from DevTools by setting globalThis.__buxCdpTrace to an empty array, and reads it
// back), to say where each 0.1 ms of the endpoint's added time goes. Off by default: each hook is one
// property read, nothing is recorded. Marks carry no command content, only a name and a time on the
// clock the bridge's marks use (performance.timeOrigin + performance.now(); bridge/common/cdp-trace.ts).
// Here, not in the worker's cdp room, because the connection room (bridge-connection.ts) marks too.
type Marks = [name: string, at: number, id?: string][];

const marks = (): Marks | undefined => (globalThis as { __buxCdpTrace?: Marks }).__buxCdpTrace;

/** One mark, when a bench turned the trace on; id: the command's id as the bridge relayed it (the bridge's marks name it too). */
export function cdpTraceMark(name: string, id?: string): void {
  const m = marks();
  if (m)
    m.push(id === undefined ? [name, performance.timeOrigin + performance.now()] : [name, performance.timeOrigin + performance.now(), id]);
}
