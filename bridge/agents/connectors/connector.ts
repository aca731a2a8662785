// An outbound connector: dials a seed 000/001 backend and, on our side, is an ordinary agent session
// on the bridge's /agent endpoint (leases tabs, per-tab queues, timeouts, tab limit; listed in
// /status and the side panel under hello.client.name, from where the person can disconnect it).
// Commands from the backend run one at a time, in arrival order, as the seeds' single-threaded
// extensions do.
import { EventEmitter } from 'node:events';

import { AgentClient } from '../../client/agent-client';
import type { Logger } from '../../common/log';
import { BackendLink, type LinkFailure } from './backend-link';
import { Seed000Translator } from './seed000';
import { Seed001Translator } from './seed001';

export type Dialect = '000' | '001';

export interface ConnectorOptions {
  dialect: Dialect;
  backendUrl: string;
  bridgeUrl: string;
  /** Agent secret; omitted: env, else the bridge's secrets file (as AgentClient does). */
  secret?: string;
  allowRemote?: boolean;
  maxTabs?: number;
  /** The browser to work in, by name (AgentClientOptions.browser); omitted: the bridge's choice. */
  browser?: string;
  logger?: Logger;
  /** Backoff bounds for the backend link (tests shorten them). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** hello.client.name: what the person sees in the agent list (at most 100 characters). */
export function connectorClientName(dialect: Dialect, backendUrl: string): string {
  return `seed${dialect}-connector ${backendUrl}`.slice(0, 100);
}

/** Events: 'backend-open', 'backend-close', 'backend-retry' (delayMs, why, LinkFailure), 'stopped' (why). */
export class SeedConnector extends EventEmitter {
  private agent: AgentClient | null = null;
  private link: BackendLink | null = null;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly opts: ConnectorOptions) {
    super();
  }

  /** The agent session this connector holds on the bridge (null before start()). */
  get sessionId(): string | null {
    return this.agent?.sessionId ?? null;
  }

  get clientName(): string {
    return connectorClientName(this.opts.dialect, this.opts.backendUrl);
  }

  async start(): Promise<void> {
    const link = new BackendLink({
      url: this.opts.backendUrl,
      allowRemote: this.opts.allowRemote ?? false,
      ...(this.opts.minDelayMs === undefined ? {} : { minDelayMs: this.opts.minDelayMs }),
      ...(this.opts.maxDelayMs === undefined ? {} : { maxDelayMs: this.opts.maxDelayMs }),
    });
    const agent = await AgentClient.connect({
      url: this.opts.bridgeUrl,
      clientName: this.clientName,
      ...(this.opts.secret === undefined ? {} : { secret: this.opts.secret }),
      ...(this.opts.maxTabs === undefined ? {} : { maxTabs: this.opts.maxTabs }),
      ...(this.opts.browser === undefined ? {} : { browser: this.opts.browser }),
    });
    this.agent = agent;
    this.link = link;
    const log = this.opts.logger;
    agent.on('close', (code: number, reason: string) => {
      // 1000/1008/4xxx: the bridge ended the session on purpose (the person disconnected it, the
      // bridge refused us); anything else is a drop that AgentClient resumes by itself.
      if (code === 1000 || code === 1008 || code >= 4000) void this.stop(`the bridge closed the session (${code} ${reason})`);
    });
    const translator001 = this.opts.dialect === '001' ? new Seed001Translator(agent) : null;
    const translator000 = this.opts.dialect === '000' ? new Seed000Translator(agent) : null;
    link.on('open', () => {
      log?.info(`connected to the seed ${this.opts.dialect} backend at ${this.opts.backendUrl}`);
      this.emit('backend-open');
      // Seed 000's example flow starts with the extension's Snapshot.
      if (translator000) this.enqueue(async () => void link.send(await translator000.snapshot()));
    });
    link.on('close', (code: number) => {
      log?.info(`backend link closed (${code})`);
      this.emit('backend-close', code);
    });
    link.on('retry', (ms: number, why: string, failure: LinkFailure) => {
      log?.debug(`backend ${this.opts.backendUrl} ${failure.kind} (${why}); retrying in ${ms} ms`);
      this.emit('backend-retry', ms, why, failure);
    });
    link.on('bad-frame', (text: string) => {
      log?.warn(`backend sent a frame that is not JSON (${text.length} chars); answered with an error`);
      if (translator001) link.send({ id: null, success: false, error: 'Frame is not JSON. Send {"id":"...","type":"snapshot"}.' });
      else
        link.send({
          type: 'ActionResult',
          data: { success: false, error: 'Frame is not JSON. Send {"type":"ActionCommand","data":{...}}.', data: {} },
        });
    });
    link.on('message', (frame: unknown) => {
      this.enqueue(async () => {
        if (translator001) {
          const out = await translator001.handle(frame);
          if (out) link.send(out);
        } else if (translator000) {
          for (const m of await translator000.handle(frame)) link.send(m);
        }
      });
    });
    link.start();
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue = this.queue
      .then(job)
      .catch((e: unknown) =>
        this.opts.logger?.error(`seed ${this.opts.dialect} command failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`),
      );
  }

  async stop(why = 'stopped'): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([this.link?.stop(), this.agent?.close()]);
    this.emit('stopped', why);
  }
}
