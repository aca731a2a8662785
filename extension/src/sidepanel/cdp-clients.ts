// A CDP endpoint URL's details in the side panel: one row per URL (made with
// `browser-use-ext cdp-url --name NAME`), what each connected client is doing (its tabs by title and
// host, commands per second, the last method), and Revoke with a confirm step. A URL in use sits under
// the agent entry of its client (a CDP client is an agent like the others); one with no client is a
// small line under the agents. A URL the person
// stopped (Disconnect or Stop on its client) is marked stopped, with "Allow again" to let it connect. Renders from the
// bridge's cdp_clients (stored by the worker, panel-relay.ts). The bridge sends it up to once a
// second while clients are busy, so rows are updated in place, never rebuilt: a Revoke button or a
// confirm step the person is on keeps its focus through the updates.
import type { CdpClientInfo, PanelRequest, PanelResponse } from '../shared/panel-messages';
import type { TabNames } from './tab-names';

type Ask = (req: PanelRequest) => Promise<PanelResponse>;

interface RowView {
  li: HTMLLIElement;
  badge: HTMLElement;
  meta: HTMLElement;
  conns: HTMLUListElement;
  revoke: HTMLButtonElement;
  allow: HTMLButtonElement;
  confirm: HTMLElement;
  confirmYes: HTMLButtonElement;
  confirmNo: HTMLButtonElement;
  error: HTMLElement;
  errorCode: HTMLElement;
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", else the date. */
export function ago(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return 'at an unknown time';
  const s = Math.max(0, (now - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  const d = Math.round(s / 86_400);
  if (d < 30) return `${d} day${d === 1 ? '' : 's'} ago`;
  return `on ${new Date(t).toLocaleDateString()}`;
}

function rate(n: number): string {
  const v = n < 10 ? Math.round(n * 10) / 10 : Math.round(n);
  return `${v} command${v === 1 ? '' : 's'}/s`;
}

/** A row moved to another place keeps the focus of the control the person is on. */
function moveKeepingFocus(li: HTMLElement, move: () => void): void {
  const focused = document.activeElement instanceof HTMLElement && li.contains(document.activeElement) ? document.activeElement : null;
  move();
  if (focused && document.activeElement !== focused) focused.focus();
}

export class CdpClientsView {
  private clients: CdpClientInfo[] = [];
  private readonly rows = new Map<string, RowView>();
  private readonly confirming = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly errors = new Map<string, { message: string; code?: string }>();
  private connected = true;
  private homes = new Map<string, HTMLElement>();

  constructor(
    private readonly ask: Ask,
    private readonly tabs: TabNames,
  ) {
    tabs.onChange(() => this.render());
    // Relative times ("5 min ago") move on while nothing else changes.
    setInterval(() => this.render(), 30_000);
  }

  /** Off the bridge, the list is what it last said: say so. */
  setConnected(connected: boolean): void {
    $('cdp-stale').hidden = connected || this.clients.length === 0;
    this.connected = connected;
  }

  set(clients: CdpClientInfo[]): void {
    this.clients = clients;
    this.tabs.want(this.heldTabs());
    this.render();
  }

  private heldTabs(): Set<number> {
    return new Set(this.clients.flatMap((c) => c.connections.flatMap((k) => k.tab_ids)));
  }

  /** Where each URL's row goes: under the agent entry of the client using it (index.ts); the rest stay in the idle list. */
  setHomes(homes: Map<string, HTMLElement>): void {
    this.homes = homes;
    this.render();
  }

  render(): void {
    const list = $('cdp-list');
    const names = new Set(this.clients.map((c) => c.name));
    for (const [name, row] of this.rows)
      if (!names.has(name)) {
        row.li.remove();
        this.rows.delete(name);
        this.confirming.delete(name);
        this.errors.delete(name);
      }
    const idle: HTMLLIElement[] = [];
    for (const c of this.clients) {
      const row = this.rows.get(c.name) ?? this.createRow(c.name);
      this.fill(row, c);
      const home = this.homes.get(c.name);
      if (!home) idle.push(row.li);
      else if (row.li.parentElement !== home) moveKeepingFocus(row.li, () => home.append(row.li));
    }
    // Keep the bridge's order (oldest first) without moving a row that is already in place.
    idle.forEach((li, i) => {
      if (list.children[i] !== li) moveKeepingFocus(li, () => list.insertBefore(li, list.children[i] ?? null));
    });
    $('cdp-empty').hidden = this.clients.length > 0;
    $('cdp-idle').hidden = idle.length === 0;
    $('cdp-stale').hidden = this.connected || this.clients.length === 0;
    $('cdp-bar-help').hidden = this.clients.length === 0;
  }

  private createRow(name: string): RowView {
    const li = el('li', 'cdp-client');
    li.dataset['cdpName'] = name;
    const head = el('div', 'row');
    const nameEl = el('span', 'cdp-name', name);
    nameEl.title = name;
    const badge = el('span', 'badge');
    const revoke = el('button', 'secondary cdp-revoke', 'Revoke');
    revoke.type = 'button';
    revoke.title = `Disconnect the programs using "${name}" and make its address stop working`;
    revoke.setAttribute('aria-label', `Revoke ${name}`);
    const allow = el('button', 'secondary cdp-allow', 'Allow again');
    allow.type = 'button';
    allow.title = `You stopped the program using "${name}"; let it connect with its address again`;
    allow.setAttribute('aria-label', `Allow ${name} again`);
    head.append(nameEl, badge, allow, revoke);
    const meta = el('div', 'hint cdp-meta');
    const conns = el('ul', 'cdp-conns');
    const confirm = el('div', 'cdp-confirm notice');
    confirm.setAttribute('role', 'group');
    confirm.setAttribute('aria-label', `Confirm revoking ${name}`);
    const question = el('p', '', `Revoke "${name}"? Programs using it are disconnected now and its address stops working.`);
    const confirmYes = el('button', 'danger cdp-confirm-yes', 'Revoke');
    confirmYes.type = 'button';
    const confirmNo = el('button', 'secondary cdp-confirm-no', 'Cancel');
    confirmNo.type = 'button';
    const buttons = el('div', 'row actions');
    buttons.append(confirmYes, confirmNo);
    confirm.append(question, buttons);
    const error = el('p', 'error cdp-error');
    error.setAttribute('role', 'alert');
    const errorCode = el('p', 'hint cdp-error-code');
    li.append(head, meta, conns, confirm, error, errorCode);
    const row: RowView = { li, badge, meta, conns, revoke, allow, confirm, confirmYes, confirmNo, error, errorCode };
    allow.addEventListener('click', () => void this.allowAgain(name));

    revoke.addEventListener('click', () => {
      this.confirming.add(name);
      this.errors.delete(name);
      this.render();
      confirmYes.focus();
    });
    const cancel = () => {
      this.confirming.delete(name);
      this.render();
      revoke.focus();
    };
    confirmNo.addEventListener('click', cancel);
    confirm.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') cancel();
    });
    confirmYes.addEventListener('click', () => void this.revoke(name));
    this.rows.set(name, row);
    return row;
  }

  private async revoke(name: string): Promise<void> {
    if (this.pending.has(name)) return;
    this.pending.add(name);
    const result = $('cdp-result');
    result.textContent = '';
    this.render();
    const r = await this.ask({ bux: 'panel', op: 'cdp_revoke', name });
    this.pending.delete(name);
    this.confirming.delete(name);
    if (r.ok) {
      this.errors.delete(name);
      result.className = 'hint';
      result.textContent = `Revoked "${name}": its programs were disconnected and its address no longer works.`;
      delete result.dataset['errorCode'];
    } else {
      const row = this.rows.get(name);
      if (row) this.errors.set(name, { message: r.error, ...(r.error_code ? { code: r.error_code } : {}) });
      else {
        result.className = 'error';
        result.textContent = `Could not revoke "${name}": ${r.error}`;
        if (r.error_code) result.dataset['errorCode'] = r.error_code;
      }
      if (row) row.revoke.focus();
    }
    this.render();
    if (r.ok) result.focus();
  }

  private async allowAgain(name: string): Promise<void> {
    if (this.pending.has(name)) return;
    this.pending.add(name);
    const result = $('cdp-result');
    result.textContent = '';
    this.render();
    const r = await this.ask({ bux: 'panel', op: 'cdp_allow', name });
    this.pending.delete(name);
    if (r.ok) {
      this.errors.delete(name);
      result.className = 'hint';
      result.textContent = `"${name}" may connect again with its address.`;
      delete result.dataset['errorCode'];
    } else this.errors.set(name, { message: r.error, ...(r.error_code ? { code: r.error_code } : {}) });
    this.render();
    if (r.ok) result.focus();
    else this.rows.get(name)?.allow.focus();
  }

  private fill(row: RowView, c: CdpClientInfo): void {
    const n = c.connections.length;
    const stopped = typeof c.stopped_at === 'string';
    row.badge.textContent = stopped ? 'stopped' : n ? `${n} connected` : 'not connected';
    row.badge.classList.toggle('idle', n === 0 && !stopped);
    row.badge.classList.toggle('stopped', stopped);
    row.allow.hidden = !stopped;
    row.allow.disabled = this.pending.has(c.name);
    if (stopped)
      row.allow.title = `You stopped the program using "${c.name}" ${ago(c.stopped_at ?? '')}; let it connect with its address again`;
    const used = c.last_used_at ? `last used ${ago(c.last_used_at)}` : 'never used';
    row.meta.textContent = `up to ${c.max_tabs} tab${c.max_tabs === 1 ? '' : 's'} · made ${ago(c.created_at)} · ${used}`;
    row.meta.title = `Made ${c.created_at}${c.last_used_at ? `, last used ${c.last_used_at}` : ''}`;

    // One compact line per live connection: its tabs, its pace, the last method.
    const items = c.connections.map((k) => {
      const li = el('li', 'cdp-conn');
      if (k.session_id) li.dataset['sessionId'] = k.session_id;
      const labels = k.tab_ids.map((id) => this.tabs.label(id));
      const tabs = el('span', 'cdp-tabs', k.session_id === null ? 'connecting…' : labels.length ? labels.join(', ') : 'no tab yet');
      tabs.title = tabs.textContent ?? '';
      const pace = el('span', 'cdp-rate', rate(k.commands_per_s));
      pace.title = 'Commands per second over the last 10 s';
      li.append(tabs, pace);
      if (k.last_method) {
        const last = el('code', 'cdp-last', k.last_method);
        last.title = `Last command: ${k.last_method}`;
        li.append(last);
      }
      return li;
    });
    row.conns.replaceChildren(...items);
    row.conns.hidden = items.length === 0;

    const confirming = this.confirming.has(c.name);
    const pending = this.pending.has(c.name);
    row.confirm.hidden = !confirming && !pending;
    row.revoke.disabled = pending;
    row.revoke.setAttribute('aria-expanded', String(confirming));
    row.confirmYes.disabled = pending;
    row.confirmNo.disabled = pending;
    row.confirmYes.textContent = pending ? 'Revoking…' : 'Revoke';
    const err = this.errors.get(c.name);
    row.error.textContent = err ? `Could not ${stopped ? 'allow' : 'revoke'} "${c.name}": ${err.message}` : '';
    row.errorCode.textContent = err?.code ? `Details: ${err.code}` : '';
    row.errorCode.hidden = !err?.code;
    if (err?.code) row.error.dataset['errorCode'] = err.code;
    else delete row.error.dataset['errorCode'];
  }
}
