// The CDP endpoint's URLs: `browser-use-ext cdp-url --name NAME` mints a token, prints
// http://127.0.0.1:PORT/cdp/<token> once, and keeps only the token's SHA-256 in
// <config dir>/cdp-clients.json (0600, written atomically: bridge/common/token-file.ts), with the tab
// limit the URL grants and when it was made and last used. Minting a name that exists replaces its
// entry, so the earlier URL of that name stops working. The running bridge reads the file again when
// it changed (CdpClientsFile: one stat per request), so new and revoked URLs apply without a restart.
// When the person stops a client in the browser, its entry gets stopped_at: the URL is refused until
// they allow it again in the side panel or a new URL of that name is made (the mark survives a restart).
// `cdp-url --browser B` binds the URL to one of the person's browsers by name (`browser`); a record
// without it (every URL made before) follows the bridge's rule at connect time: the only connected
// browser, or the one the person used last.
import fs from 'node:fs';
import path from 'node:path';

import { cli } from '../../common/cli-invocation';
import { nameTakenMessage } from '../../common/name-taken';
import { DEFAULT_PORT } from '../../common/ports';
import {
  CLIENT_NAME,
  findByToken,
  isSha256Hex,
  newToken,
  readJsonFile,
  sha256Hex,
  withFileLock,
  writeJsonFileAtomic,
} from '../../common/token-file';

export const CDP_CLIENTS_FILE = 'cdp-clients.json';
export const CDP_TOKEN_PREFIX = 'cdp_';
/** What a minted token looks like; anything else cannot be one, so it is refused without a guess being counted. */
export const CDP_TOKEN_FORMAT = /^cdp_[A-Za-z0-9_-]{43}$/;
/** Tabs a CDP client may hold at once unless --tabs says otherwise: enough for a page and its popups. */
export const DEFAULT_CDP_MAX_TABS = 3;
/** The same ceiling as an agent's own hello.max_tabs and the bridge's --max-tabs. */
export const MAX_CDP_TABS = 100;
export const DEFAULT_CDP_NAME = 'default';

export interface CdpClientRecord {
  name: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  sha256: string;
  max_tabs: number;
  created_at: string;
  last_used_at: string | null;
  /** When the person stopped a client of this URL in the browser (ISO 8601): refused until allowed again; null otherwise. */
  stopped_at: string | null;
  /** The browser its clients work in, by the name its side panel shows; null: the bridge's choice at connect time. */
  browser: string | null;
}

export const cdpClientsPath = (configDir: string): string => path.join(configDir, CDP_CLIENTS_FILE);

/** The URL a client is given: the HTTP discovery base (…/json/version lives under it). */
export function cdpUrl(token: string, port: number = DEFAULT_PORT, host = '127.0.0.1'): string {
  return `http://${host}:${port}/cdp/${token}`;
}

/** The browser-level WebSocket of a URL, for clients that take only ws:// (puppeteer's browserWSEndpoint). */
export function cdpBrowserWsUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/devtools/browser`;
}

const fixHint = (file: string) => `Delete ${file} and make new URLs with \`${cli('cdp-url --name NAME')}\`.`;

function parseRecords(file: string, parsed: unknown): CdpClientRecord[] {
  if (parsed === undefined) return [];
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file} is not a list of CDP URLs. ${fixHint(file)}`);
  const clients = (parsed as { clients?: unknown }).clients;
  if (!Array.isArray(clients)) throw new Error(`${file} has no "clients" list. ${fixHint(file)}`);
  const out: CdpClientRecord[] = [];
  for (const c of clients as unknown[]) {
    if (typeof c !== 'object' || c === null) continue;
    const r = c as Record<string, unknown>;
    const name = r['name'];
    const maxTabs = r['max_tabs'];
    const createdAt = r['created_at'];
    const lastUsed = r['last_used_at'];
    const stoppedAt = r['stopped_at'];
    const browser = r['browser'];
    if (typeof name !== 'string' || !CLIENT_NAME.test(name) || !isSha256Hex(r['sha256'])) continue;
    out.push({
      name,
      sha256: r['sha256'],
      max_tabs:
        typeof maxTabs === 'number' && Number.isInteger(maxTabs) && maxTabs >= 1 && maxTabs <= MAX_CDP_TABS
          ? maxTabs
          : DEFAULT_CDP_MAX_TABS,
      created_at: typeof createdAt === 'string' ? createdAt : new Date(0).toISOString(),
      last_used_at: typeof lastUsed === 'string' ? lastUsed : null,
      stopped_at: typeof stoppedAt === 'string' ? stoppedAt : null,
      browser: typeof browser === 'string' && browser !== '' ? browser : null,
    });
  }
  return out;
}

/** Every URL's record, oldest first. Throws with what to do when the file is damaged. */
export function listCdpClients(configDir: string): CdpClientRecord[] {
  const file = cdpClientsPath(configDir);
  return parseRecords(file, readJsonFile(file, `${file} is not valid JSON. ${fixHint(file)}`));
}

function writeRecords(configDir: string, records: CdpClientRecord[]): void {
  // An unbound URL is written as before (no "browser" key), so the file stays what older bridges read.
  const clients = records.map(({ browser, ...rest }) => (browser === null ? rest : { ...rest, browser }));
  writeJsonFileAtomic(cdpClientsPath(configDir), { clients });
}

export interface MintedCdpClient {
  /** Shown once; only its hash is kept. */
  token: string;
  record: CdpClientRecord;
  /** An entry of that name existed and was replaced: its URL no longer works. */
  replaced: boolean;
  url(port?: number, host?: string): string;
}

/** Makes a URL for `name` (replacing an existing one of that name), bound to `browser` when given. */
/**
 * Makes the URL named o.name. An existing name is replaced (its old URL stops working), unless
 * o.ifExists is 'refuse' (`cdp-url` without --replace): then it throws nameTakenMessage's words.
 */
export function mintCdpClient(
  configDir: string,
  o: { name: string; maxTabs?: number; browser?: string; ifExists?: 'replace' | 'refuse' },
): MintedCdpClient {
  if (!CLIENT_NAME.test(o.name))
    throw new Error(
      `The name "${o.name}" must be 1-64 letters, digits, dot, dash or underscore, starting with a letter or digit (e.g. playwright).`,
    );
  const maxTabs = o.maxTabs ?? DEFAULT_CDP_MAX_TABS;
  if (!Number.isInteger(maxTabs) || maxTabs < 1 || maxTabs > MAX_CDP_TABS)
    throw new Error(`The tab limit must be an integer 1-${MAX_CDP_TABS}, got ${String(o.maxTabs)}.`);
  return withFileLock(cdpClientsPath(configDir), () => {
    const records = listCdpClients(configDir);
    const kept = records.filter((r) => r.name !== o.name);
    if (kept.length !== records.length && o.ifExists === 'refuse')
      throw new Error(nameTakenMessage('A CDP URL', o.name, `cdp-url --name ${o.name}`));
    const token = newToken(CDP_TOKEN_PREFIX);
    const record: CdpClientRecord = {
      name: o.name,
      sha256: sha256Hex(token),
      max_tabs: maxTabs,
      created_at: new Date().toISOString(),
      last_used_at: null,
      stopped_at: null,
      browser: o.browser ?? null,
    };
    writeRecords(configDir, [...kept, record]);
    return { token, record, replaced: kept.length !== records.length, url: (port?: number, host?: string) => cdpUrl(token, port, host) };
  });
}

/** Removes the URL named `name`; false when there was none. */
export function revokeCdpClient(configDir: string, name: string): boolean {
  return withFileLock(cdpClientsPath(configDir), () => {
    const records = listCdpClients(configDir);
    const kept = records.filter((r) => r.name !== name);
    if (kept.length === records.length) return false;
    writeRecords(configDir, kept);
    return true;
  });
}

/** Notes that a client connected with the URL `name` (the panel shows it). No-op if it was replaced meanwhile. */
export function touchCdpClient(configDir: string, name: string, sha256: string, at: Date = new Date()): void {
  withFileLock(cdpClientsPath(configDir), () => {
    const records = listCdpClients(configDir);
    const r = records.find((x) => x.name === name && x.sha256 === sha256);
    if (!r) return;
    r.last_used_at = at.toISOString();
    writeRecords(configDir, records);
  });
}

/**
 * The person stopped a client of the URL `name`: the URL is refused from now on (stoppedAt) or allowed
 * again (null). Only the URL the client authenticated with (sha256): a URL of that name made since is
 * left alone. False when there is no such URL.
 */
export function setCdpClientStopped(configDir: string, name: string, stoppedAt: Date | null, sha256?: string): boolean {
  return withFileLock(cdpClientsPath(configDir), () => {
    const records = listCdpClients(configDir);
    const r = records.find((x) => x.name === name && (sha256 === undefined || x.sha256 === sha256));
    if (!r) return false;
    r.stopped_at = stoppedAt ? stoppedAt.toISOString() : null;
    writeRecords(configDir, records);
    return true;
  });
}

/**
 * The bridge's view of cdp-clients.json: read again only when the file changed (inode, size or
 * mtime; every write is a rename, so each one is a new inode), which costs one stat per request.
 */
export class CdpClientsFile {
  readonly file: string;
  private signature: string | null = null;
  private cached: CdpClientRecord[] = [];
  private error: Error | null = null;
  /** Bumped each time the content was read again (a change to publish). */
  version = 0;

  constructor(readonly configDir: string) {
    this.file = cdpClientsPath(configDir);
  }

  /** The current records; throws (with what to do) while the file is damaged. */
  records(): CdpClientRecord[] {
    this.refresh();
    if (this.error) throw this.error;
    return this.cached;
  }

  /** The record of a presented token, or null (constant-time over every record). */
  verify(token: string): CdpClientRecord | null {
    return findByToken(token, this.records());
  }

  /** Re-reads the file if it changed; true when it did. */
  refresh(): boolean {
    let sig: string;
    try {
      const st = fs.statSync(this.file);
      sig = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      sig = 'none';
    }
    if (sig === this.signature) return false;
    this.signature = sig;
    this.version++;
    try {
      this.cached = listCdpClients(this.configDir);
      this.error = null;
    } catch (e) {
      this.cached = [];
      this.error = e instanceof Error ? e : new Error(String(e));
    }
    return true;
  }
}
