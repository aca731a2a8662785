// Bench-only timestamps of one CDP command on its way through the bridge (bench/cdp.ts turns them on
// to say where each 0.1 ms of the endpoint's added time goes). Off by default: each hook is one
// null check, nothing is recorded or allocated. Marks carry no command content, only a name and a
// time on the shared clock (performance.timeOrigin + performance.now(), the same clock the service
// worker's marks use, so the two sides' marks can be laid side by side).
export type CdpTraceMark = readonly [name: string, at: number, id?: string];

let marks: CdpTraceMark[] | null = null;

/** One mark, when a bench turned the trace on; id: the relay's id of the command (to find the worker's marks of it). */
export function cdpTraceMark(name: string, id?: string): void {
  if (marks !== null)
    marks.push(
      id === undefined ? [name, performance.timeOrigin + performance.now()] : [name, performance.timeOrigin + performance.now(), id],
    );
}

/** Turns the trace on (an empty list) or off (null). */
export function setCdpTrace(on: boolean): void {
  marks = on ? [] : null;
}

/** The marks so far, emptied. */
export function takeCdpTrace(): CdpTraceMark[] {
  const out = marks ?? [];
  if (marks !== null) marks = [];
  return out;
}
