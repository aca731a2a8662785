// Seed 001 ("Extension Architecture"): the extension side of its WebSocket protocol, translated to
// our actions. The backend sends AgentCommand {id?, type, params?}; we answer AgentResponse
// {id, success, data | error}. Refs e1, e2, ... come from the latest snapshot only (the seed's
// RefRegistry is "replaced on every new snapshot"), so a ref maps to our stable element_id of that
// snapshot and a ref from an older snapshot is unknown. Router (seed: router.ts): snapshot goes to
// the active tab; every other command to the tab of the last snapshot, else the active tab.
import type { ActionResultMessage, SimplifiedState } from '../../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../../schemas/generated/registry';
import { renderAriaTree } from '../../../schemas/lib/render/aria-tree';
import { type ActionPort, activeTab, errorText, listTabs, resultOf } from '../../client/action-port';

export const SEED001_COMMANDS = [
  'snapshot',
  'click',
  'dblclick',
  'fill',
  'type',
  'press',
  'hover',
  'focus',
  'check',
  'uncheck',
  'select',
  'tab',
  'open',
  'get',
  'is',
] as const;
export type Seed001CommandType = (typeof SEED001_COMMANDS)[number];

export interface Seed001Response {
  id: string | number | null;
  success: boolean;
  data?: unknown;
  error?: string;
}

type Params = Record<string, unknown>;

class CommandError extends Error {}

const str = (p: Params, key: string, required = true): string | undefined => {
  const v = p[key];
  if (v === undefined || v === null) {
    if (required) throw new CommandError(`params.${key} is required (a string).`);
    return undefined;
  }
  if (typeof v !== 'string') throw new CommandError(`params.${key} must be a string, got ${JSON.stringify(v)}.`);
  return v;
};

/** The seed's refs: e1.. by position in the latest snapshot. */
export function withSeedRefs(state: SimplifiedState): SimplifiedState {
  return { ...state, actionable_elements: state.actionable_elements.map((el, i) => ({ ...el, id: `e${el.index ?? i + 1}` })) };
}

export class Seed001Translator {
  /** "e3" -> our element_id in lastTab; replaced on every snapshot. */
  private refs = new Map<string, string>();
  private lastTab: number | null = null;

  constructor(private readonly port: ActionPort) {}

  /** Handles one frame from the backend; returns the frame to send back (null: nothing to send). */
  async handle(frame: unknown): Promise<Record<string, unknown> | null> {
    if (!frame || typeof frame !== 'object' || Array.isArray(frame)) {
      return { id: null, success: false, error: 'Expected a JSON object {id, type, params}.' };
    }
    const f = frame as Params;
    const id = typeof f['id'] === 'string' || typeof f['id'] === 'number' ? f['id'] : null;
    if (f['type'] === 'ping') return id === null ? { type: 'pong' } : { type: 'pong', id };
    if (f['type'] === 'pong') return null;
    const type = f['type'];
    if (typeof type !== 'string' || !(SEED001_COMMANDS as readonly string[]).includes(type)) {
      return { id, success: false, error: `Unknown command type ${JSON.stringify(type)}. Supported: ${SEED001_COMMANDS.join(', ')}.` };
    }
    const params = f['params'] ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      return { id, success: false, error: 'params must be an object.' };
    try {
      const data = await this.run(type as Seed001CommandType, params as Params);
      const out: Seed001Response = { id, success: true };
      if (data !== undefined) out.data = data;
      return { ...out };
    } catch (e) {
      return { id, success: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  private async run(type: Seed001CommandType, p: Params): Promise<unknown> {
    switch (type) {
      case 'snapshot':
        return this.snapshot();
      case 'click':
        return this.onRef('click', p, {});
      case 'dblclick':
        return this.onRef('double_click', p, {});
      case 'hover':
        return this.onRef('hover', p, {});
      case 'focus':
        return this.onRef('focus', p, {});
      case 'check':
        return this.onRef('check', p, {});
      case 'uncheck':
        return this.onRef('uncheck', p, {});
      case 'fill':
        return this.onRef('fill', p, { value: str(p, 'value') ?? '' });
      case 'type': {
        const delay = p['delay'];
        if (delay !== undefined && (typeof delay !== 'number' || delay < 0))
          throw new CommandError('params.delay must be a number of milliseconds >= 0.');
        return this.onRef('type', p, {
          text: str(p, 'text') ?? '',
          ...(typeof delay === 'number' ? { delay_ms: Math.min(Math.round(delay), 1000) } : {}),
        });
      }
      case 'press': {
        const key = str(p, 'key') ?? '';
        if (p['ref'] === undefined) return this.data(await this.act('press', { key }));
        return this.onRef('press', p, { key });
      }
      case 'select':
        return this.select(p);
      case 'open': {
        const url = str(p, 'url') ?? '';
        const r = await this.act('navigate', { url });
        return { url: resultOf(r)['url'] ?? url };
      }
      case 'get':
        return this.getOrIs('get', p);
      case 'is':
        return this.getOrIs('is', p);
      case 'tab':
        return this.tab(p);
    }
  }

  private async snapshot(): Promise<string> {
    const tab = await activeTab(this.port);
    if (!tab) throw new CommandError('No active tab to snapshot. Open a tab with {"type":"tab","params":{"action":"new","url":"..."}}.');
    const r = await this.port.call('get_state', { viewport_expansion: -1 }, { tabId: tab.tab_id });
    if (r.status !== 'success' || !r.new_simplified_state) throw new CommandError(errorText(r));
    const state = r.new_simplified_state;
    this.refs = new Map(state.actionable_elements.map((el, i) => [`e${el.index ?? i + 1}`, el.id]));
    this.lastTab = state.tab_id ?? tab.tab_id;
    // Seed 001's snapshot gives every interactive element of the page a ref (its RefRegistry covers
    // the whole DOM): nothing is summarised away, unlike the default rendering.
    return renderAriaTree(withSeedRefs(state), { summarize: false });
  }

  private resolveRef(p: Params): string {
    const ref = str(p, 'ref') ?? '';
    const elementId = this.refs.get(ref);
    if (elementId === undefined) {
      throw new CommandError(
        this.refs.size === 0
          ? `Ref "${ref}" not found: no snapshot taken yet. Send {"type":"snapshot"} first.`
          : `Ref "${ref}" not found in the latest snapshot (e1..e${this.refs.size}). Take a new snapshot and use a ref from it.`,
      );
    }
    return elementId;
  }

  /** Acting on a ref always goes to the tab that produced the snapshot the ref came from. */
  private async onRef<A extends ActionName>(action: A, p: Params, extra: Params): Promise<unknown> {
    const element_id = this.resolveRef(p);
    const r = await this.port.call(
      action,
      { ...extra, element_id } as ActionParams<A>,
      this.lastTab === null ? {} : { tabId: this.lastTab },
    );
    if (r.status !== 'success') throw new CommandError(this.refError(r, p));
    return this.data(r);
  }

  private refError(r: ActionResultMessage, p: Params): string {
    if (r.error_info?.error_code === 'TARGET_ELEMENT_NOT_FOUND')
      return `Ref "${String(p['ref'])}" is gone from the page (it changed since the snapshot). Take a new snapshot. (${errorText(r)})`;
    return errorText(r);
  }

  /** Router: the last snapshot's tab, falling back to the active tab when that one is gone. */
  private async act<A extends ActionName>(action: A, params: ActionParams<A>): Promise<ActionResultMessage> {
    if (this.lastTab !== null) {
      const r = await this.port.call(action, params, { tabId: this.lastTab });
      if (r.error_info?.error_code !== 'TAB_NOT_FOUND' && r.error_info?.error_code !== 'TAB_NOT_LEASED') {
        if (r.status !== 'success') throw new CommandError(errorText(r));
        return r;
      }
      this.lastTab = null;
    }
    const tab = await activeTab(this.port);
    const r = await this.port.call(action, params, tab ? { tabId: tab.tab_id } : {});
    if (r.status !== 'success') throw new CommandError(errorText(r));
    return r;
  }

  private data(r: ActionResultMessage): unknown {
    const res = { ...resultOf(r) };
    delete res['element_id']; // our stable ref, not a seed ref: would only confuse the backend
    const od = r.outcome_details;
    if (od?.navigation_occurred) res['navigated'] = true;
    if (r.new_simplified_state) res['url'] = r.new_simplified_state.url;
    if (od?.no_change_notice) res['notice'] = od.no_change_notice;
    return res;
  }

  private async select(p: Params): Promise<unknown> {
    const raw = p['value'] ?? p['values'];
    const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? (raw as string[]) : [];
    const [first, ...rest] = list;
    const values: [string, ...string[]] | null = first === undefined ? null : [first, ...rest];
    if (!values) throw new CommandError('params.value is required: the option value or label (a string, or a list for a multiple select).');
    const element_id = this.resolveRef(p);
    const opts = this.lastTab === null ? {} : { tabId: this.lastTab };
    let r = await this.port.call('select_option', { element_id, values }, opts);
    // The seed says "value"; people pass the visible label just as often (Playwright accepts both).
    if (r.error_info?.error_code === 'OPTION_NOT_FOUND') r = await this.port.call('select_option', { element_id, labels: values }, opts);
    if (r.status !== 'success') throw new CommandError(this.refError(r, p));
    const res = resultOf(r);
    return { values: res['values'], labels: res['labels'] };
  }

  private async getOrIs(action: 'get' | 'is', p: Params): Promise<unknown> {
    const what = str(p, 'what') ?? '';
    const hasRef = p['ref'] !== undefined;
    if (action === 'get' && !hasRef && (what === 'url' || what === 'title')) {
      const r = await this.act('get', { what } as ActionParams<'get'>);
      return resultOf(r)['value'];
    }
    if (action === 'get' && what === 'attribute') {
      const r = await this.port.call(
        'get',
        { what, attribute: str(p, 'name') ?? str(p, 'attribute') ?? '', element_id: this.resolveRef(p) },
        this.lastTab === null ? {} : { tabId: this.lastTab },
      );
      if (r.status !== 'success') throw new CommandError(this.refError(r, p));
      return resultOf(r)['value'];
    }
    const params = { what, element_id: this.resolveRef(p) } as ActionParams<typeof action>;
    const r = await this.port.call(action, params, this.lastTab === null ? {} : { tabId: this.lastTab });
    if (r.status !== 'success')
      throw new CommandError(
        r.error_info?.error_code === 'INVALID_MESSAGE'
          ? `params.what ${JSON.stringify(what)} is not supported by "${action}". ${errorText(r)}`
          : this.refError(r, p),
      );
    return resultOf(r)['value'];
  }

  private async tab(p: Params): Promise<unknown> {
    const action = str(p, 'action') ?? '';
    const pickTab = async (): Promise<number> => {
      const tabId = p['tabId'] ?? p['id'];
      if (typeof tabId === 'number') return tabId;
      const index = p['index'];
      if (typeof index === 'number') {
        const tabs = await listTabs(this.port);
        const t = tabs[index];
        if (!t) throw new CommandError(`No tab at index ${index} (there are ${tabs.length}). Use {"action":"list"} to see them.`);
        return t.tab_id;
      }
      throw new CommandError(`tab ${action} needs params.tabId (from {"action":"list"}) or params.index.`);
    };
    switch (action) {
      case 'list': {
        const tabs = await listTabs(this.port);
        return tabs.map((t) => ({ id: t.tab_id, tabId: t.tab_id, index: t.index, url: t.url, title: t.title, active: t.active }));
      }
      case 'new': {
        const url = str(p, 'url', false);
        const r = await this.port.call('open_tab', url === undefined ? {} : { url });
        if (r.status !== 'success') throw new CommandError(errorText(r));
        const tabId = resultOf(r)['tab_id'];
        if (typeof tabId === 'number') this.lastTab = tabId;
        return { tabId, url: r.new_simplified_state?.url ?? url ?? 'about:blank' };
      }
      case 'close': {
        const explicit = p['tabId'] !== undefined || p['id'] !== undefined || p['index'] !== undefined;
        const tabId = explicit ? await pickTab() : (this.lastTab ?? (await activeTab(this.port))?.tab_id);
        if (tabId === undefined) throw new CommandError('No tab to close.');
        const r = await this.port.call('close_tab', { tab_id: tabId }, { tabId });
        if (r.status !== 'success') throw new CommandError(errorText(r));
        if (this.lastTab === tabId) this.lastTab = null;
        return { closed: tabId };
      }
      case 'switch': {
        const tabId = await pickTab();
        const r = await this.port.call('switch_tab', { tab_id: tabId }, { tabId });
        if (r.status !== 'success') throw new CommandError(errorText(r));
        this.lastTab = tabId;
        return { tabId };
      }
      default:
        throw new CommandError(`Unknown tab action ${JSON.stringify(action)}: use new, list, close or switch.`);
    }
  }
}
