// Seed 000 ("Action Protocol"): the extension side of its WsMessage envelope, translated to our
// actions. Backend -> us: {type:"ActionCommand", data:{type: navigate_to|click_element|type_text|
// scroll_to, ...}}. Us -> backend: {type:"ActionResult", data:{success, error, data}} and
// {type:"Snapshot", data:{tree:[{id, role, name, tag, bounds}]}}.
// Snapshot rules (seed section 5): depth-first order, ids from 1, interactive elements only, only
// those in the viewport, never agent UI (data-browser-agent-ui) or hidden elements. Our get_state at
// viewport_expansion 0 already walks depth-first and skips agent UI and hidden nodes; ids are
// renumbered after the viewport filter so they run 1..n without gaps.
// Example flow (seed section 7): the extension sends a Snapshot first, the backend acts on its ids,
// the extension answers with an ActionResult. We send a Snapshot on connect and after every
// ActionResult, so the backend always holds the ids its next command refers to.
import type { Bounds, SimplifiedState } from '../../../schemas/generated/protocol';
import { type ActionPort, activeTab, errorText, resultOf } from '../../client/action-port';

export interface Seed000Node {
  id: number;
  role: string;
  name: string;
  tag: string;
  bounds: Bounds;
}

export interface Seed000Result {
  success: boolean;
  error: string | null;
  data: Record<string, unknown>;
}

export type Seed000Out = { type: 'ActionResult'; data: Seed000Result } | { type: 'Snapshot'; data: { tree: Seed000Node[] } };

const COMMANDS = ['navigate_to', 'click_element', 'type_text', 'scroll_to'] as const;

/** The seed's tree from one of our states: viewport-only, visible, renumbered 1..n depth-first. */
export function seed000Tree(state: SimplifiedState): { tree: Seed000Node[]; ids: Map<number, string> } {
  const tree: Seed000Node[] = [];
  const ids = new Map<number, string>();
  for (const el of state.actionable_elements) {
    if (!el.is_visible || el.is_in_viewport === false || !el.bounds) continue;
    const id = tree.length + 1;
    ids.set(id, el.id);
    tree.push({ id, role: el.role ?? 'generic', name: el.name || el.text_content || '', tag: el.tag.toUpperCase(), bounds: el.bounds });
  }
  return { tree, ids };
}

export class Seed000Translator {
  private ids = new Map<number, string>();
  private tabId: number | null = null;

  constructor(private readonly port: ActionPort) {}

  /** The Snapshot message of the active tab (the seed has one page: the one the person looks at). */
  async snapshot(): Promise<Seed000Out> {
    const tab = await activeTab(this.port);
    if (!tab) {
      this.ids = new Map();
      return { type: 'Snapshot', data: { tree: [] } };
    }
    const r = await this.port.call('get_state', { viewport_expansion: 0 }, { tabId: tab.tab_id });
    if (r.status !== 'success' || !r.new_simplified_state) {
      // A page we may not script (chrome://) has no interactive elements for the backend.
      this.ids = new Map();
      this.tabId = tab.tab_id;
      return { type: 'Snapshot', data: { tree: [] } };
    }
    this.tabId = r.new_simplified_state.tab_id ?? tab.tab_id;
    const { tree, ids } = seed000Tree(r.new_simplified_state);
    this.ids = ids;
    return { type: 'Snapshot', data: { tree } };
  }

  /** Handles one frame; returns what to send back in order (an ActionResult, then a Snapshot). */
  async handle(frame: unknown): Promise<Seed000Out[]> {
    const fail = (error: string): Seed000Out => ({ type: 'ActionResult', data: { success: false, error, data: {} } });
    if (!frame || typeof frame !== 'object' || Array.isArray(frame))
      return [fail('Expected a WsMessage {"type":"ActionCommand","data":{...}}.')];
    const f = frame as Record<string, unknown>;
    if (f['type'] === 'ping') return [];
    if (f['type'] === 'GetSnapshot' || f['type'] === 'Snapshot') {
      try {
        return [await this.snapshot()];
      } catch (e) {
        return [fail(`No snapshot: ${e instanceof Error ? e.message : String(e)}`)];
      }
    }
    if (f['type'] !== 'ActionCommand')
      return [
        fail(
          `Unsupported message type ${JSON.stringify(f['type'])}: send {"type":"ActionCommand","data":{"type":"${COMMANDS.join('|')}", ...}}.`,
        ),
      ];
    const data = f['data'];
    if (!data || typeof data !== 'object' || Array.isArray(data))
      return [fail('ActionCommand.data must be an object like {"type":"click_element","ref":1}.')];
    let result: Seed000Result;
    try {
      result = await this.run(data as Record<string, unknown>);
    } catch (e) {
      // The bridge link failed (not the action): say so instead of leaving the backend waiting.
      return [fail(`The browser could not be reached: ${e instanceof Error ? e.message : String(e)}. Retry when the bridge is back.`)];
    }
    let snap: Seed000Out;
    try {
      snap = await this.snapshot();
    } catch {
      return [{ type: 'ActionResult', data: result }];
    }
    return [{ type: 'ActionResult', data: result }, snap];
  }

  private async run(c: Record<string, unknown>): Promise<Seed000Result> {
    const ok = (data: Record<string, unknown>): Seed000Result => ({ success: true, error: null, data });
    const no = (error: string): Seed000Result => ({ success: false, error, data: {} });
    const opts = this.tabId === null ? {} : { tabId: this.tabId };
    const element = (): string | Seed000Result => {
      const ref = c['ref'];
      if (typeof ref !== 'number' || !Number.isInteger(ref))
        return no(`"ref" must be the integer id of an element in the latest Snapshot, got ${JSON.stringify(ref)}.`);
      const id = this.ids.get(ref);
      if (id === undefined)
        return no(`Element ref ${ref} is not in the latest Snapshot (ids 1..${this.ids.size}). Use an id from the latest Snapshot.`);
      return id;
    };
    switch (c['type']) {
      case 'navigate_to': {
        const url = c['url'];
        if (typeof url !== 'string' || url === '') return no('"url" is required for navigate_to.');
        const r = await this.port.call('navigate', { url }, opts);
        return r.status === 'success' ? ok({ url: resultOf(r)['url'] ?? url }) : no(errorText(r));
      }
      case 'click_element': {
        const id = element();
        if (typeof id !== 'string') return id;
        const r = await this.port.call('click', { element_id: id }, opts);
        return r.status === 'success' ? ok(r.outcome_details?.navigation_occurred ? { navigated: true } : {}) : no(errorText(r));
      }
      case 'type_text': {
        const id = element();
        if (typeof id !== 'string') return id;
        const text = c['text'];
        if (typeof text !== 'string') return no('"text" is required for type_text (a string).');
        // "Types text into an element": replace what the field holds, as a person selecting it and typing would.
        const r = await this.port.call('fill', { element_id: id, value: text }, opts);
        return r.status === 'success' ? ok({}) : no(errorText(r));
      }
      case 'scroll_to': {
        const x = c['x'] ?? 0;
        const y = c['y'];
        if (typeof x !== 'number' || typeof y !== 'number') return no('"x" and "y" must be numbers (page coordinates in CSS pixels).');
        const r = await this.port.call('scroll_to', { x, y }, opts);
        const res = resultOf(r);
        return r.status === 'success' ? ok({ x: res['scroll_x'], y: res['scroll_y'] }) : no(errorText(r));
      }
      default:
        return no(`Unknown ActionCommand type ${JSON.stringify(c['type'])}. Supported: ${COMMANDS.join(', ')}.`);
    }
  }
}
