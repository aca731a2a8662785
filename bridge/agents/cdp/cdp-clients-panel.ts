// What the person sees of the CDP URLs in the side panel and in /status: each URL with its live
// connections (commands per second, last method, tabs; never a token or its hash), sent to the
// extension as cdp_clients only when it changed, and the panel's controls: revoking a URL, and allowing
// again a URL the person stopped (stopped-url.ts).
import type { CdpClientControlMessage, CdpClientsMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/wire';
import type { Logger } from '../../common/log';
import { type CdpClientRecord, type CdpClientsFile, revokeCdpClient, setCdpClientStopped } from './cdp-clients-file';
import { type Connection, safe } from './cdp-connection';

export interface CdpClientsPanelOptions {
  file: CdpClientsFile;
  configDir: string;
  log: Logger;
  /** Sends to the connected extension; false when none is connected. */
  sendToExtension: (m: CdpClientsMessage) => boolean;
  connections: () => Iterable<Connection>;
  /** A URL was revoked here: its connections end (before the answer lists what is left). */
  onRevoked: (name: string) => void;
}

export type ControlAnswer = { ok: true; reply: CdpClientsMessage } | { ok: false; error: ErrorInfo };

export class CdpClientsPanel {
  /** The last cdp_clients sent (without request_id), to send only changes. */
  private lastSent: string | null = null;

  constructor(private readonly o: CdpClientsPanelOptions) {}

  status(): unknown {
    let records: CdpClientRecord[];
    try {
      records = this.o.file.records();
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    return Object.fromEntries(
      records.map((r) => [
        r.name,
        {
          max_tabs: r.max_tabs,
          last_used_at: r.last_used_at,
          stopped_at: r.stopped_at,
          ...(r.browser === null ? {} : { browser: r.browser }),
          connections: this.connectionStats(r.name),
        },
      ]),
    );
  }

  /** The extension just connected: it gets the whole list now. */
  publish(): void {
    const m = this.clientsMessage();
    this.lastSent = this.o.sendToExtension(m) ? JSON.stringify(m) : null;
  }

  /** Sends the list if it differs from what the extension last got (at most once per tick for stats). */
  publishChanges(): void {
    const m = this.clientsMessage();
    const text = JSON.stringify(m);
    if (text === this.lastSent) return;
    if (this.o.sendToExtension(m)) this.lastSent = text;
  }

  control(c: CdpClientControlMessage): ControlAnswer {
    let names: string[];
    try {
      names = this.o.file.records().map((r) => r.name);
    } catch (e) {
      return { ok: false, error: errorInfo('EXTENSION_INTERNAL_ERROR', e instanceof Error ? e.message : String(e), 'bridge') };
    }
    if (!names.includes(c.name))
      return {
        ok: false,
        error: errorInfo(
          'CONNECTOR_NOT_FOUND',
          names.length
            ? `No CDP URL is named "${c.name}"; the URLs are: ${names.join(', ')}. Refresh the list and pick one of them.`
            : `No CDP URL is named "${c.name}"; there are none now (make one with: browser-use-ext cdp-url --name NAME).`,
          'bridge',
          { name: c.name, names },
        ),
      };
    if (c.op === 'allow') return this.allow(c);
    try {
      revokeCdpClient(this.o.configDir, c.name);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: errorInfo(
          'EXTENSION_INTERNAL_ERROR',
          `Could not revoke the CDP URL "${c.name}": ${why}. It still works; retry, or run: browser-use-ext cdp-url --revoke ${c.name}`,
          'bridge',
        ),
      };
    }
    this.o.log.info('cdp URL revoked in the side panel', { name: c.name });
    this.o.onRevoked(c.name);
    const m = this.clientsMessage();
    this.lastSent = JSON.stringify(m);
    return { ok: true, reply: { ...m, request_id: c.request_id } };
  }

  /** The person allows a stopped URL again: its client may connect with it from now on. */
  private allow(c: CdpClientControlMessage): ControlAnswer {
    try {
      setCdpClientStopped(this.o.configDir, c.name, null);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: errorInfo(
          'EXTENSION_INTERNAL_ERROR',
          `Could not allow the CDP URL "${c.name}" again: ${why}. It is still refused; retry, or make a new URL with: browser-use-ext cdp-url --name ${c.name}`,
          'bridge',
        ),
      };
    }
    this.o.log.info('cdp URL allowed again in the side panel', { name: c.name });
    this.o.file.refresh();
    const m = this.clientsMessage();
    this.lastSent = JSON.stringify(m);
    return { ok: true, reply: { ...m, request_id: c.request_id } };
  }

  private connectionStats(name: string): CdpClientsMessage['clients'][number]['connections'] {
    return [...this.o.connections()]
      .filter((c) => c.name === name && c.ended === null)
      .map((c) => {
        const s = c.emulator ? safe(() => c.emulator?.stats() ?? null, null) : null;
        return {
          session_id: s?.session_id ?? c.agent?.sessionId ?? null,
          commands_per_s: Math.max(0, Math.round((s?.commands_per_s ?? 0) * 10) / 10),
          last_method: s?.last_method ? s.last_method.slice(0, 100) : null,
          tab_ids: (s?.tab_ids ?? []).filter((t) => Number.isInteger(t) && t >= 0),
        };
      });
  }

  private records(): CdpClientRecord[] {
    try {
      return this.o.file.records();
    } catch {
      return [];
    }
  }

  private clientsMessage(): CdpClientsMessage {
    return {
      type: 'cdp_clients',
      clients: this.records().map((r) => ({
        name: r.name,
        max_tabs: r.max_tabs,
        created_at: r.created_at,
        last_used_at: r.last_used_at,
        stopped_at: r.stopped_at,
        browser: r.browser,
        connections: this.connectionStats(r.name),
      })),
    };
  }
}
