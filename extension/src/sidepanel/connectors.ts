// The side panel's "Connect a backend": the person adds an agent server that runs on this computer
// (a WebSocket server of one of two kinds, see KINDS), the bridge connects to it and keeps doing so
// (bridge/agents/connectors/panel-connectors.ts), and each one is listed with the state the bridge
// reports for its link: Connecting…, Connected, Not reachable (retrying in N s), Refused: why.
// The connector's own agent session is "connected" to the bridge as soon as the bridge runs it, so
// the agent list shows such a session by its backend's state instead (forSession), never by the
// session's. Rows update in place, so a countdown never takes the focus off a Remove button.
import type { BackendConnectorInfo } from '../../../schemas/generated/protocol';
import { PANEL_KEYS, type PanelRequest, type PanelResponse } from '../shared/panel-messages';

type Ask = (req: PanelRequest) => Promise<PanelResponse>;
type Dialect = BackendConnectorInfo['dialect'];

/** The two kinds of backend, in words: both are WebSocket servers the bridge dials and then obeys. */
export const KINDS: Record<Dialect, { label: string; hint: string }> = {
  '001': {
    label: 'Agent server: snapshot and refs',
    hint: 'It asks for a snapshot of the page as text and acts on refs like e1 (click, fill, type, press, open…). Often at ws://localhost:8080.',
  },
  '000': {
    label: 'Agent server: numbered elements',
    hint: 'It gets a list of numbered elements on screen and sends navigate, click, type and scroll commands.',
  },
};

export type ConnectorStateKey = 'connecting' | 'connected' | 'unreachable' | 'refused';

/** The connector's state in plain words. retrying is split by what the bridge saw: nobody answered,
 * or the backend answered and refused (error details.reason). The countdown runs from receivedAt. */
export function connectorState(c: BackendConnectorInfo, now: number, receivedAt: number): { key: ConnectorStateKey; text: string } {
  if (c.backend === 'connected') return { key: 'connected', text: 'Connected' };
  if (c.backend === 'connecting') return { key: 'connecting', text: 'Connecting…' };
  const details = c.last_error?.details ?? {};
  const left = Math.ceil(((c.retry_in_ms ?? 0) - (now - receivedAt)) / 1000);
  const again = left > 0 ? `retrying in ${left} s` : 'trying again now';
  if (details['reason'] === 'refused') {
    const why = typeof details['refusal'] === 'string' ? details['refusal'] : 'the backend said no';
    return { key: 'refused', text: `Refused: ${why} (${again})` };
  }
  return { key: 'unreachable', text: `Not reachable (${again})` };
}

/** A URL the bridge can dial: ws:// or wss:// with a host. (Loopback is the bridge's check: it
 * answers a remote host with the terminal command that allows it.) */
export function backendUrlProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return null;
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return 'Not an address yet: write it like ws://localhost:8080.';
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return 'The address starts with ws:// (or wss://), e.g. ws://localhost:8080.';
  if (!u.hostname) return 'Add the host and port, e.g. ws://localhost:8080.';
  return null;
}

interface Row {
  li: HTMLLIElement;
  dot: HTMLElement;
  state: HTMLElement;
  why: HTMLElement;
  code: HTMLElement;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

export class ConnectorsView {
  private list: BackendConnectorInfo[] = [];
  private receivedAt = Date.now();
  private readonly rows = new Map<string, Row>();
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly ask: Ask) {
    const dialect = $<HTMLSelectElement>('backend-dialect');
    const url = $<HTMLInputElement>('backend-url');
    const showKind = () => ($('backend-kind-hint').textContent = KINDS[dialect.value === '000' ? '000' : '001'].hint);
    dialect.addEventListener('change', showKind);
    showKind();
    url.addEventListener('input', () => this.checkUrl(false));
    url.addEventListener('blur', () => this.checkUrl(true));
    this.checkUrl(false);
    $<HTMLFormElement>('backend-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.add();
    });
    void chrome.storage.session.get(PANEL_KEYS.connectors).then((v) => this.set(v[PANEL_KEYS.connectors]));
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'session' && PANEL_KEYS.connectors in changes) this.set(changes[PANEL_KEYS.connectors]?.newValue);
    });
    // The "retrying in N s" countdown.
    setInterval(() => {
      if (this.list.some((c) => c.backend === 'retrying')) this.render();
    }, 1000);
  }

  /** Called after every change of the list (the agent list shows connector sessions by their backend). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** How the agent list shows a connector's agent session, or null for any other agent. */
  forSession(sessionId: string): { label: string; state: string; note: string } | null {
    const c = this.list.find((x) => x.session_id === sessionId);
    if (!c) return null;
    const s = connectorState(c, Date.now(), this.receivedAt);
    return {
      label: `Backend ${c.url}`,
      state:
        s.key === 'connected' ? 'connected' : s.key === 'connecting' ? 'connecting' : s.key === 'refused' ? 'refused' : 'not reachable',
      note: `${KINDS[c.dialect].label}, added under Connect a backend`,
    };
  }

  private set(value: unknown): void {
    this.list = Array.isArray(value) ? (value as BackendConnectorInfo[]) : [];
    this.receivedAt = Date.now();
    this.render();
    for (const fn of this.listeners) fn();
  }

  /** Add is enabled only for an address the bridge can dial; a wrong one says why next to the field
   * once the person has typed enough to mean it (on leaving the field, or a scheme already typed). */
  private checkUrl(leaving: boolean): boolean {
    const input = $<HTMLInputElement>('backend-url');
    const problem = backendUrlProblem(input.value);
    const typed = input.value.trim() !== '';
    const show = problem !== null && (leaving || /^[a-z]+:\/\/./i.test(input.value.trim()));
    $('backend-url-error').textContent = show ? problem : '';
    input.setAttribute('aria-invalid', show ? 'true' : 'false');
    $<HTMLButtonElement>('backend-connect').disabled = !typed || problem !== null;
    return typed && problem === null;
  }

  private async add(): Promise<void> {
    if (!this.checkUrl(true)) return;
    const dialect: Dialect = $<HTMLSelectElement>('backend-dialect').value === '000' ? '000' : '001';
    const input = $<HTMLInputElement>('backend-url');
    const url = input.value.trim();
    this.result(`Adding ${url}…`, false);
    const r = await this.ask({ bux: 'panel', op: 'connector_add', dialect, url });
    if (r.ok) {
      input.value = '';
      this.checkUrl(false);
      this.result(
        `Added. The bridge connects to ${url} now and again after every restart, until you remove it; its state is in the list below.`,
        false,
      );
    } else this.result(r.error, true, r.error_code);
  }

  private result(message: string, error: boolean, code?: string): void {
    const p = $('backend-result');
    p.className = error ? 'error' : 'hint';
    p.replaceChildren(message);
    if (code) {
      p.dataset['errorCode'] = code;
      p.append(' ', el('span', 'dev-code', `(${code})`));
    } else delete p.dataset['errorCode'];
  }

  private render(): void {
    const ul = $<HTMLUListElement>('backend-list');
    const now = Date.now();
    const ids = new Set(this.list.map((c) => c.connector_id));
    for (const [id, row] of this.rows)
      if (!ids.has(id)) {
        row.li.remove();
        this.rows.delete(id);
      }
    for (const c of this.list) {
      const row = this.rows.get(c.connector_id) ?? this.row(c);
      ul.append(row.li); // keeps the bridge's order (appending an attached node moves it)
      const s = connectorState(c, now, this.receivedAt);
      row.li.dataset['backend'] = c.backend;
      row.li.dataset['state'] = s.key;
      if (row.state.textContent !== s.text) row.state.textContent = s.text;
      const why = c.backend === 'connected' ? '' : (c.last_error?.message ?? '');
      row.why.textContent = why;
      row.why.hidden = !why;
      if (c.last_error && why) row.why.dataset['errorCode'] = c.last_error.error_code;
      else delete row.why.dataset['errorCode'];
      row.code.textContent = c.last_error && why ? `Code: ${c.last_error.error_code}` : '';
      row.code.hidden = !row.code.textContent;
    }
    $('backend-empty').hidden = this.list.length > 0;
  }

  private row(c: BackendConnectorInfo): Row {
    const li = el('li');
    li.dataset['connectorId'] = c.connector_id;
    const head = el('div', 'row');
    const url = el('span', 'url', c.url);
    url.title = c.url;
    const remove = el('button', 'secondary', 'Remove');
    remove.type = 'button';
    remove.setAttribute('aria-label', `Remove the backend ${c.url}`);
    remove.title = 'Stop connecting to this backend and forget it';
    remove.addEventListener('click', () => {
      void this.ask({ bux: 'panel', op: 'connector_remove', connector_id: c.connector_id }).then((r) =>
        r.ok ? this.result(`Removed ${c.url}.`, false) : this.result(r.error, true, r.error_code),
      );
    });
    head.append(url, remove);
    const line = el('div', 'row backend-state');
    const dot = el('span', 'dot');
    dot.setAttribute('aria-hidden', 'true');
    const state = el('span', 'state');
    line.append(dot, state);
    const kind = el('div', 'hint kind', KINDS[c.dialect].label);
    const why = el('div', 'why');
    const code = el('div', 'dev-code');
    li.append(head, line, kind, why, code);
    const r: Row = { li, dot, state, why, code };
    this.rows.set(c.connector_id, r);
    return r;
  }
}
