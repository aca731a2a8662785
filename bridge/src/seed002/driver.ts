// Seed 002's text driver: takes an LLM reply, runs its one command, and returns what the seed says
// the agent receives: "System Error: ..." / "System: ..." lines, then a <browsing_context> block per
// target tab (every active target tab after every action: the seed's constraints) with the page's
// <api_activity> appended. Element ids are numbered across all target tabs in one sequence, so an
// id names one element of one tab unambiguously; they are valid until the next turn.
import type { ActionResultMessage, ApiCall, SimplifiedState, TabReleasedMessage } from '../../../schemas/generated/protocol';
import { renderBrowsingContext } from '../../../schemas/lib/render/browsing-context';
import { errorText, resultOf, type ActionPort } from '../seeds/agent-port';
import { parseReply, type Seed002Command } from './parse';

export interface DriverEvents {
  on(event: 'tab_released', listener: (m: TabReleasedMessage) => void): unknown;
}

export interface DriverOptions {
  /** Per-action timeout given to the bridge; above the seed's 15 s no-change window. */
  actionTimeoutMs?: number;
  /** get_state scope: -1 whole page (default; seed 002 has no scroll command), 0 viewport only. */
  viewportExpansion?: number;
  maxElements?: number;
}

export interface TurnResult {
  /** The text the agent receives next. */
  text: string;
  /** The command that ran (null: none or a System Error before running). */
  command: Seed002Command | null;
  /** The reply had no command, or the loop's explicit done. */
  done: boolean;
  /** The command failed (a System Error line was produced). */
  error: boolean;
}

interface Target {
  tabId: number;
  url: string;
}

const sysError = (m: string) => `System Error: ${m}`;

/** `<api_activity>` as seed 002 shows it: same-origin URLs as paths, bodies indented. */
export function renderApiActivity(calls: readonly ApiCall[], pageUrl: string): string {
  let origin = '';
  try {
    origin = new URL(pageUrl).origin;
  } catch {
    origin = '';
  }
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const lines = ['<api_activity>'];
  for (const c of calls) {
    const url = origin && c.url.startsWith(origin) ? c.url.slice(origin.length) || '/' : c.url;
    if (c.body) lines.push(`  <call method="${esc(c.method)}" url="${esc(url)}">`, `    ${c.body.replace(/</g, '&lt;')}`, '  </call>');
    else lines.push(`  <call method="${esc(c.method)}" url="${esc(url)}"></call>`);
  }
  lines.push('</api_activity>');
  return lines.join('\n');
}

export class Seed002Driver {
  private targets: Target[] = [];
  private ids = new Map<number, { tabId: number; elementId: string }>();
  private notices: string[] = [];
  private api = new Map<number, ApiCall[]>();

  constructor(
    private readonly port: ActionPort,
    events?: DriverEvents,
    private readonly opts: DriverOptions = {},
  ) {
    events?.on('tab_released', (m) => {
      this.targets = this.targets.filter((t) => t.tabId !== m.tab_id);
      if (m.reason === 'tab_limit') this.notices.push(`System: ${m.message ?? `Tab limit (${m.max_tabs ?? '?'}) reached. Released tab: ${m.url ?? `tab ${m.tab_id}`}`}`);
      else this.notices.push(`System: Target tab closed: ${m.url ?? `tab ${m.tab_id}`}`);
    });
  }

  get targetTabIds(): number[] {
    return this.targets.map((t) => t.tabId);
  }

  /** The first observation: the active tab becomes the first target (unless targets exist). */
  async observe(): Promise<string> {
    const prefetched = new Map<number, ActionResultMessage>();
    if (this.targets.length === 0) {
      const r = await this.port.call('get_state', this.stateParams());
      const s = r.new_simplified_state;
      if (r.status === 'success' && s?.tab_id !== undefined) {
        this.targets.push({ tabId: s.tab_id, url: s.url });
        prefetched.set(s.tab_id, r);
      } else this.notices.push(sysError(`No target tab yet (${errorText(r)}). Open one with open_tab.`));
    }
    return this.render([], prefetched);
  }

  /** Runs the reply's one command and returns what the agent receives. */
  async execute(reply: string): Promise<TurnResult> {
    const parsed = parseReply(reply);
    if (parsed.kind === 'none') return { text: '', command: null, done: true, error: false };
    if (parsed.kind === 'error') return { text: sysError(parsed.message), command: null, done: false, error: true };
    const command = parsed.command;
    if (command.action === 'done') return { text: '', command, done: true, error: false };
    const lines: string[] = [];
    const error = await this.run(command, lines);
    return { text: await this.render(lines), command, done: false, error };
  }

  private stateParams() {
    return { viewport_expansion: this.opts.viewportExpansion ?? -1, max_elements: this.opts.maxElements ?? 500, max_text_chars: 0 };
  }

  private timeout() {
    return { timeoutMs: this.opts.actionTimeoutMs ?? 25_000 };
  }

  /** Returns true when it failed; appends the System lines. */
  private async run(c: Exclude<Seed002Command, { action: 'done' }>, lines: string[]): Promise<boolean> {
    switch (c.action) {
      case 'click':
      case 'type': {
        const el = this.ids.get(c.id);
        if (!el) {
          lines.push(sysError(`Element ID ${c.id} not found.`));
          return true;
        }
        // Seed 002: clicks and keys go through CDP Input.* (trusted), and type clicks the field first.
        // The focusing click of a type changes nothing by design: no 15 s no-change watch for it.
        const settle = c.action === 'type' ? { settle: { no_change_timeout_ms: 0 } } : {};
        const click = await this.port.call('click', { element_id: el.elementId, trusted: true }, { tabId: el.tabId, ...this.timeout(), ...settle });
        this.noteResult(el.tabId, click, lines);
        if (click.status !== 'success') return this.fail(click, c.id, lines);
        if (c.action === 'type' && c.value !== '') {
          const typed = await this.port.call('type', { element_id: el.elementId, text: c.value, trusted: true }, { tabId: el.tabId, ...this.timeout() });
          this.noteResult(el.tabId, typed, lines);
          if (typed.status !== 'success') return this.fail(typed, c.id, lines);
        }
        return false;
      }
      case 'open_tab':
      case 'open_tool': {
        const r = c.action === 'open_tab' ? await this.port.call('open_tab', { url: c.url, active: false }, this.timeout()) : await this.port.call('open_tool', { name: c.name }, this.timeout());
        if (r.status !== 'success') {
          if (c.action === 'open_tab') lines.push(sysError(`Failed to open URL "${c.url}". ${r.error_info?.message ?? errorText(r)}`));
          else lines.push(sysError(r.error_info?.message ?? errorText(r)));
          return true;
        }
        const tabId = resultOf(r)['tab_id'];
        if (typeof tabId === 'number' && !this.targets.some((t) => t.tabId === tabId)) {
          this.targets.push({ tabId, url: r.new_simplified_state?.url ?? (c.action === 'open_tab' ? c.url : String(resultOf(r)['url'] ?? '')) });
        }
        this.noteResult(typeof tabId === 'number' ? tabId : null, r, lines);
        return false;
      }
    }
  }

  private fail(r: ActionResultMessage, id: number, lines: string[]): true {
    const code = r.error_info?.error_code;
    if (code === 'TARGET_ELEMENT_NOT_FOUND') lines.push(sysError(`Element ID ${id} not found.`));
    else lines.push(sysError(r.error_info?.message ?? errorText(r)));
    return true;
  }

  private noteResult(tabId: number | null, r: ActionResultMessage, lines: string[]): void {
    const od = r.outcome_details;
    if (od?.no_change_notice) lines.push(`System: ${od.no_change_notice}`);
    if (tabId !== null && od?.api_activity?.length) this.api.set(tabId, [...(this.api.get(tabId) ?? []), ...od.api_activity]);
  }

  /** System lines, then a fresh <browsing_context> of every target tab, ids numbered across them. */
  private async render(lines: string[], prefetched: ReadonlyMap<number, ActionResultMessage> = new Map()): Promise<string> {
    const out = [...this.notices.splice(0), ...lines];
    this.ids = new Map();
    let next = 1;
    for (const t of [...this.targets]) {
      const r = prefetched.get(t.tabId) ?? (await this.port.call('get_state', this.stateParams(), { tabId: t.tabId }));
      if (r.status !== 'success' || !r.new_simplified_state) {
        if (r.error_info?.error_code === 'TAB_NOT_FOUND' || r.error_info?.error_code === 'TAB_NOT_LEASED') {
          this.targets = this.targets.filter((x) => x !== t);
          out.push(`System: Target tab is no longer available: ${t.url}`);
        } else {
          out.push(sysError(`Could not read ${t.url}: ${r.error_info?.message ?? errorText(r)}`));
        }
        continue;
      }
      const state: SimplifiedState = r.new_simplified_state;
      t.url = state.url;
      const numbered = {
        ...state,
        actionable_elements: state.actionable_elements.map((el) => {
          const id = next++;
          this.ids.set(id, { tabId: t.tabId, elementId: el.id });
          return { ...el, index: id };
        }),
      };
      out.push(renderBrowsingContext(numbered));
      const calls = [...(this.api.get(t.tabId) ?? []), ...(r.outcome_details?.api_activity ?? [])];
      this.api.delete(t.tabId);
      if (calls.length) out.push(renderApiActivity(calls, state.url));
    }
    if (this.targets.length === 0) out.push('System: No target tabs. Open one with open_tab or open_tool.');
    return out.join('\n');
  }
}
