// The bridge's side of the side panel's "Connect a backend": connector_control
// from the extension starts or removes a seed 000/001 connector run by this bridge
// (connector-manager.ts); backend_connectors tells the extension the list and each backend link's
// state after its handshake, on every change and in answer to each control. The panel can only
// ever add loopback backends: a remote one needs the person at a terminal (`connect --allow-remote`),
// so a page that somehow reached the panel's UI cannot point the browser at a remote controller.
import type { BackendConnectorsMessage, ConnectorControlMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/wire';
import type { Logger } from '../../common/log';
import { BackendUrlError } from './backend-link';
import { ConnectorManager } from './connector-manager';

export const CONNECTORS_FILE = 'connectors.json';

export interface PanelConnectorsOptions {
  logger: Logger;
  /** <config dir>/connectors.json; null: memory only. */
  file: string | null;
  /** Sends to the extension; false when none is connected. */
  send: (m: BackendConnectorsMessage) => boolean;
  minDelayMs?: number;
  maxDelayMs?: number;
}

export class PanelConnectors {
  private manager: ConnectorManager | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: PanelConnectorsOptions) {}

  /** After the bridge listens: dial the saved backends again. */
  async start(agentUrl: string, agentSecret: string): Promise<void> {
    const m = new ConnectorManager({
      bridgeAgentUrl: agentUrl,
      agentSecret,
      logger: this.opts.logger,
      allowRemote: false,
      file: this.opts.file,
      ...(this.opts.minDelayMs === undefined ? {} : { minDelayMs: this.opts.minDelayMs }),
      ...(this.opts.maxDelayMs === undefined ? {} : { maxDelayMs: this.opts.maxDelayMs }),
    });
    this.manager = m;
    m.on('change', () => this.schedule());
    await m.restore();
  }

  message(requestId: string | null): BackendConnectorsMessage {
    return { type: 'backend_connectors', request_id: requestId, connectors: this.manager?.list() ?? [] };
  }

  /** The list, now (a newly connected extension, or the answer to a control). */
  publish(requestId: string | null = null): void {
    this.opts.send(this.message(requestId));
  }

  /** Answers with the list, or returns the error to send in reply to request_id. */
  /** browser: the name of the browser whose panel asked; the connector it starts works there (null: the bridge's choice). */
  async handle(
    c: ConnectorControlMessage,
    browser: string | null = null,
  ): Promise<{ ok: true; reply: BackendConnectorsMessage } | { ok: false; error: ErrorInfo }> {
    const m = this.manager;
    if (!m) return { ok: false, error: errorInfo('INVALID_MESSAGE', 'The bridge is still starting; try again in a second.', 'bridge') };
    if (c.command === 'remove') {
      const id = c.connector_id ?? '';
      if (!(await m.remove(id)))
        return {
          ok: false,
          error: errorInfo(
            'CONNECTOR_NOT_FOUND',
            `No connector "${id}" runs on the bridge (removed already, or disconnected in the agent list). Nothing to do.`,
            'bridge',
            { connector_id: id },
          ),
        };
      return { ok: true, reply: this.message(c.request_id) };
    }
    const dialect = c.dialect;
    const url = (c.url ?? '').trim();
    if (dialect !== '000' && dialect !== '001')
      return {
        ok: false,
        error: errorInfo(
          'INVALID_MESSAGE',
          "Choose the backend's dialect: 000 (Action Protocol) or 001 (Extension Architecture).",
          'bridge',
        ),
      };
    try {
      await m.add(dialect, url, true, browser);
    } catch (e) {
      if (e instanceof BackendUrlError && e.code === 'BACKEND_NOT_LOOPBACK') {
        let host = url;
        try {
          host = new URL(url).host;
        } catch {
          /* checkBackendUrl parsed it already */
        }
        return {
          ok: false,
          error: errorInfo(
            'BACKEND_NOT_LOOPBACK',
            `Refusing to connect to ${host} from the panel: a backend can drive your logged-in browser, so the panel connects only to backends on this machine (localhost, 127.0.0.1, [::1]). To allow a remote backend, run in a terminal: browser-use-ext connect --dialect ${dialect} ${url} --allow-remote`,
            'bridge',
            { url },
          ),
        };
      }
      if (e instanceof BackendUrlError)
        return {
          ok: false,
          error: errorInfo(
            'BACKEND_URL_INVALID',
            `${e.message} Type the backend's WebSocket address, e.g. ws://localhost:8080.`,
            'bridge',
            { url },
          ),
        };
      const why = e instanceof Error ? e.message : String(e);
      this.opts.logger.error('could not start a backend connector', { dialect, url, error: why });
      return {
        ok: false,
        error: errorInfo(
          'EXTENSION_INTERNAL_ERROR',
          `The bridge could not start the connector (${why}). Check the bridge's log; restart the bridge if it repeats.`,
          'bridge',
        ),
      };
    }
    return { ok: true, reply: this.message(c.request_id) };
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.manager?.closeAll();
  }

  /** Coalesces bursts (a connector joining and its backend opening) into one message. */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.publish(null);
    }, 25);
    this.timer.unref?.();
  }
}
