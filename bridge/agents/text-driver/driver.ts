// Seed 002's text driver: takes an LLM reply, runs its one command, and returns what the seed says
// the agent receives: "System Error: ..." / "System: ..." lines, then a <browsing_context> block per
// target tab (every active target tab after every action: the seed's constraints) with the page's
// <api_activity> appended. Element ids are numbered across all target tabs in one sequence, so an
// id names one element of one tab unambiguously, and an element keeps its id for as long as it
// lives in its document (new elements get new numbers): a reply written against an older snapshot
// still means the element it saw, or gets "Element ID X not found", never a different element.
//
// Changes not caused by a command (seed 002: "Sent after every meaningful DOM change on any target
// tab"): the driver reads its target tabs with get_state watch true, so the extension pushes a tab's
// state (state_update) when the page changes by itself, within about 300 ms of the change (a
// MutationObserver in the page, extension/src/content/change-watch.ts), and seed 002's 15 s
// no-change notice as it falls due. waitForChange() waits for those pushes; with push off it polls
// the target tabs with get_state as before (the fallback, debounced: two polls in a row alike). A
// change is meaningful when the tab's rendered <browsing_context> differs from the one the agent last
// received (an interactive element came, went, or changed its label, value, href, type or disabled
// state, or the URL changed; text outside interactive elements is not in the block, so it cannot be a
// change the agent could see). A notice found on any read, the driver's own included, reaches the
// agent once: reads never drop it.
import type {
  ActionResultMessage,
  ApiCall,
  SimplifiedState,
  StateUpdateMessage,
  TabReleasedMessage,
} from '../../../schemas/generated/protocol';
import { renderBrowsingContext } from '../../../schemas/lib/render/browsing-context';
import { type ActionPort, errorText, resultOf } from '../../client/action-port';
import { parseReply, type Seed002Command } from './parse';
import { commandTitle, elementLabel, isSensitiveField } from './titles';

export interface DriverEvents {
  on(event: 'tab_released', listener: (m: TabReleasedMessage) => void): unknown;
  on(event: 'state_update', listener: (m: StateUpdateMessage) => void): unknown;
}

export interface DriverOptions {
  /** Per-action timeout given to the bridge; above the seed's 15 s no-change window. */
  actionTimeoutMs?: number;
  /** get_state scope: -1 whole page (default; seed 002 has no scroll command), 0 viewport only. */
  viewportExpansion?: number;
  maxElements?: number;
  /** Poll interval of waitForChange when push is off (default 1000 ms). */
  watchIntervalMs?: number;
  /** Ask the extension to push the target tabs' changes and due notices (default true); false: poll. */
  push?: boolean;
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
  /** What the step did, in words for the person ("Click 'Add to cart'"): titles.ts. */
  title: string;
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
  private ids = new Map<number, { tabId: number; elementId: string; label: string; sensitive: boolean }>();
  private notices: string[] = [];
  private api = new Map<number, ApiCall[]>();
  /** Stable ids: per tab, "<document URL>|<element ref>" -> the agent's number. */
  private idsByTab = new Map<number, Map<string, number>>();
  private lastId = 0;
  /** Per tab: the <browsing_context> the agent last received, and a newer one seen once by a poll. */
  private delivered = new Map<number, string>();
  private seenOnce = new Map<number, string>();
  /** Per tab: the newest state pushed since the agent's last view, not yet looked at. */
  private pushed = new Map<number, SimplifiedState>();
  /** Wakes waitForChange when a push or a notice came. */
  private wake: (() => void) | null = null;

  constructor(
    private readonly port: ActionPort,
    events?: DriverEvents,
    private readonly opts: DriverOptions = {},
  ) {
    events?.on('tab_released', (m) => {
      this.targets = this.targets.filter((t) => t.tabId !== m.tab_id);
      this.forgetTab(m.tab_id);
      if (m.reason === 'tab_limit')
        this.notices.push(
          `System: ${m.message ?? `Tab limit (${m.max_tabs ?? '?'}) reached. Released tab: ${m.url ?? `tab ${m.tab_id}`}`}`,
        );
      // The person took the tab back (side panel, the bar's Stop): it is still open, so it is never
      // worded as closed; the bridge's message says so and what to do next.
      else if (m.reason === 'released_by_user') this.notices.push(`System: ${m.message}`);
      else this.notices.push(`System: Target tab closed: ${m.url ?? `tab ${m.tab_id}`}`);
    });
    events?.on('state_update', (m) => {
      if (!this.targets.some((t) => t.tabId === m.tab_id)) return;
      if (m.no_change_notice) this.notices.push(`System: ${m.no_change_notice}`);
      this.pushed.set(m.tab_id, m.state);
      this.wake?.();
    });
  }

  private get pushOn(): boolean {
    return this.opts.push ?? true;
  }

  get targetTabIds(): number[] {
    return this.targets.map((t) => t.tabId);
  }

  /** The first observation: the given tab (a task's context.active_tab_id), else the active tab,
   * becomes the first target (unless targets exist). */
  async observe(startTabId?: number): Promise<string> {
    const prefetched = new Map<number, ActionResultMessage>();
    if (this.targets.length === 0) {
      const r = await this.port.call('get_state', this.stateParams(), startTabId === undefined ? {} : { tabId: startTabId });
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
    if (parsed.kind === 'none') return { text: '', command: null, done: true, error: false, title: commandTitle(null) };
    if (parsed.kind === 'error')
      return { text: sysError(parsed.message), command: null, done: false, error: true, title: 'Reply not understood' };
    const command = parsed.command;
    // Named before it runs: a click may take the element (and its label) away.
    const target = 'id' in command ? this.ids.get(command.id) : undefined;
    const title = commandTitle(command, target?.label ?? null, target?.sensitive ?? true);
    if (command.action === 'done') return { text: '', command, done: true, error: false, title };
    const lines: string[] = [];
    const error = await this.run(command, lines);
    return { text: await this.render(lines), command, done: false, error, title };
  }

  private stateParams() {
    return {
      viewport_expansion: this.opts.viewportExpansion ?? -1,
      max_elements: this.opts.maxElements ?? 500,
      max_text_chars: 0,
      ...(this.pushOn ? { watch: true } : {}),
    };
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
        const click = await this.port.call(
          'click',
          { element_id: el.elementId, trusted: true },
          { tabId: el.tabId, ...this.timeout(), ...settle },
        );
        this.noteResult(el.tabId, click, lines);
        if (click.status !== 'success') return this.fail(click, c.id, lines);
        if (c.action === 'type' && c.value !== '') {
          const typed = await this.port.call(
            'type',
            { element_id: el.elementId, text: c.value, trusted: true },
            { tabId: el.tabId, ...this.timeout() },
          );
          this.noteResult(el.tabId, typed, lines);
          if (typed.status !== 'success') return this.fail(typed, c.id, lines);
        }
        return false;
      }
      case 'open_tab':
      case 'open_tool': {
        const r =
          c.action === 'open_tab'
            ? await this.port.call('open_tab', { url: c.url, active: false }, this.timeout())
            : await this.port.call('open_tool', { name: c.name }, this.timeout());
        if (r.status !== 'success') {
          if (c.action === 'open_tab') lines.push(sysError(`Failed to open URL "${c.url}". ${r.error_info?.message ?? errorText(r)}`));
          else lines.push(sysError(r.error_info?.message ?? errorText(r)));
          return true;
        }
        const tabId = resultOf(r)['tab_id'];
        if (typeof tabId === 'number' && !this.targets.some((t) => t.tabId === tabId)) {
          this.targets.push({
            tabId,
            url: r.new_simplified_state?.url ?? (c.action === 'open_tab' ? c.url : String(resultOf(r)['url'] ?? '')),
          });
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
    for (const t of [...this.targets]) {
      const r = prefetched.get(t.tabId) ?? (await this.port.call('get_state', this.stateParams(), { tabId: t.tabId }));
      const block = this.blockOf(t, r, out);
      if (block === null) continue;
      this.delivered.set(t.tabId, block.context);
      this.seenOnce.delete(t.tabId);
      out.push(...this.withApi(t, block.context, block.url));
    }
    // What was pushed before these reads is older than what the agent now receives.
    this.pushed.clear();
    if (this.targets.length === 0) out.push('System: No target tabs. Open one with open_tab or open_tool.');
    return out.join('\n');
  }

  /**
   * One poll of every target tab: the <browsing_context> (and <api_activity>) of each tab whose
   * rendering changed meaningfully since the agent last received it and held still since the
   * previous poll; null when none did. System lines (a target tab gone) come with it.
   */
  async pollChanges(): Promise<string | null> {
    const out: string[] = [];
    let changed = false;
    for (const t of [...this.targets]) {
      const r = await this.port.call('get_state', this.stateParams(), { tabId: t.tabId });
      const sys: string[] = [];
      const block = this.blockOf(t, r, sys);
      // A notice this read found is news whatever the page did.
      out.push(...sys.filter((l) => l.startsWith('System: ') && this.targets.includes(t)));
      if (block === null) {
        // Only a tab that is gone is news; a read that failed once is tried again next poll.
        if (!this.targets.includes(t)) out.push(...sys);
        continue;
      }
      if (block.context === this.delivered.get(t.tabId)) {
        this.seenOnce.delete(t.tabId);
        continue;
      }
      if (this.seenOnce.get(t.tabId) !== block.context) {
        this.seenOnce.set(t.tabId, block.context);
        continue;
      }
      this.seenOnce.delete(t.tabId);
      this.delivered.set(t.tabId, block.context);
      out.push(...this.withApi(t, block.context, block.url));
      changed = true;
    }
    if (!changed && out.length === 0 && this.notices.length === 0) return null;
    if (this.targets.length === 0) out.push('System: No target tabs. Open one with open_tab or open_tool.');
    return [...this.notices.splice(0), ...out].join('\n');
  }

  /** What the pushes since the agent's last view add: due notices, and each tab whose block changed. */
  private takePushed(): string | null {
    const out: string[] = [];
    for (const t of [...this.targets]) {
      const state = this.pushed.get(t.tabId);
      if (!state) continue;
      this.pushed.delete(t.tabId);
      const block = this.blockOfState(t, state);
      if (block.context === this.delivered.get(t.tabId)) continue;
      this.delivered.set(t.tabId, block.context);
      out.push(...this.withApi(t, block.context, block.url));
    }
    this.pushed.clear();
    if (out.length === 0 && this.notices.length === 0) return null;
    return [...this.notices.splice(0), ...out].join('\n');
  }

  /**
   * The next meaningful change of a target tab or a due notice (its text), or null at the signal.
   * With push on it waits for the extension's pushes (no reads of its own); else it polls every
   * watchIntervalMs.
   */
  async waitForChange(signal?: AbortSignal): Promise<string | null> {
    if (this.pushOn) return this.waitForPush(signal);
    const every = this.opts.watchIntervalMs ?? 1000;
    while (!signal?.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, every);
        function done() {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
      if (signal?.aborted || this.targets.length === 0) continue;
      const text = await this.pollChanges();
      if (text !== null && !signal?.aborted) return text;
    }
    return null;
  }

  private async waitForPush(signal?: AbortSignal): Promise<string | null> {
    while (!signal?.aborted) {
      const text = this.takePushed();
      if (text !== null) return text;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.wake = null;
          signal?.removeEventListener('abort', done);
          resolve();
        };
        this.wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return null;
  }

  /** The tab's rendered block with stable ids, or null (System line appended, gone tab dropped). */
  private blockOf(t: Target, r: ActionResultMessage, out: string[]): { context: string; url: string } | null {
    if (r.status !== 'success' || !r.new_simplified_state) {
      if (r.error_info?.error_code === 'TAB_NOT_FOUND' || r.error_info?.error_code === 'TAB_NOT_LEASED') {
        this.targets = this.targets.filter((x) => x !== t);
        this.forgetTab(t.tabId);
        out.push(`System: Target tab is no longer available: ${t.url}`);
      } else {
        out.push(sysError(`Could not read ${t.url}: ${r.error_info?.message ?? errorText(r)}`));
      }
      return null;
    }
    // The tab's due notice may ride on any read, the driver's own included: the agent gets it here.
    if (r.outcome_details?.no_change_notice) out.push(`System: ${r.outcome_details.no_change_notice}`);
    if (r.outcome_details?.api_activity?.length)
      this.api.set(t.tabId, [...(this.api.get(t.tabId) ?? []), ...r.outcome_details.api_activity]);
    return this.blockOfState(t, r.new_simplified_state);
  }

  /** The tab's rendered block with stable ids (a state read or pushed). */
  private blockOfState(t: Target, state: SimplifiedState): { context: string; url: string } {
    t.url = state.url;
    const doc = state.url.replace(/#.*$/, '');
    const before = this.idsByTab.get(t.tabId) ?? new Map<string, number>();
    const now = new Map<string, number>();
    for (const [id, v] of this.ids) if (v.tabId === t.tabId) this.ids.delete(id);
    const numbered = {
      ...state,
      actionable_elements: state.actionable_elements.map((el) => {
        const key = `${doc}|${el.id}`;
        const id = before.get(key) ?? now.get(key) ?? ++this.lastId;
        now.set(key, id);
        this.ids.set(id, { tabId: t.tabId, elementId: el.id, label: elementLabel(el), sensitive: isSensitiveField(el) });
        return { ...el, index: id };
      }),
    };
    this.idsByTab.set(t.tabId, now);
    return { context: renderBrowsingContext(numbered), url: state.url };
  }

  private withApi(t: Target, context: string, url: string): string[] {
    const calls = this.api.get(t.tabId) ?? [];
    this.api.delete(t.tabId);
    return calls.length ? [context, renderApiActivity(calls, url)] : [context];
  }

  private forgetTab(tabId: number): void {
    this.idsByTab.delete(tabId);
    this.delivered.delete(tabId);
    this.seenOnce.delete(tabId);
    this.pushed.delete(tabId);
    for (const [id, v] of this.ids) if (v.tabId === tabId) this.ids.delete(id);
  }
}
