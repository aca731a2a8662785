// Every browser the person uses, on one bridge: each Chrome profile or other Chromium browser with
// the extension has a stable browser_id (made once by its extension) and a name the person gave it;
// agents choose a browser by that name. This module is the one home of that registry: which
// browsers are known (connected now, or remembered in the config dir's browsers.json so names
// survive restarts), the name rule (unique case-insensitively, "<name> 2" on a collision, a brand's
// short word when the extension has none), the default rule (the only connected browser, else the
// one focused last, else the one connected first) and one ExtensionLink per browser, so a browser
// reconnecting replaces only its own earlier connection.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

import type { BrowserInfo, HelloMessage } from '../../schemas/generated/protocol';
import { suggestedName } from '../../schemas/lib/browser-names';
import type { Logger } from '../common/log';
import type { ExtensionLink } from './extension-link';
import type { Answer } from './raw-relay';

/** The browser of an extension that sends no hello.browser_id (releases before several browsers). */
export const DEFAULT_BROWSER_ID = 'default';
export const BROWSERS_FILE = 'browsers.json';
/**
 * A browser that left less than this long ago is restarting (its service worker, or the browser):
 * a new agent naming it waits for it like one already working in it, instead of failing at once.
 */
const RESTARTING_MS = 30_000;
/** BrowserInfo lists carry at most this many (hello_ack.browsers, agent_sessions.other_browsers). */
const MAX_LISTED = 32;
const MAX_NAME = 64;

interface Known {
  id: string;
  name: string;
  brand: string;
  product?: string;
  /** navigator.userAgent as the extension reported it (hello.browser): /json/version's User-Agent for a URL bound here. */
  userAgent?: string;
  lastFocusedAt?: number;
  /** Order of the latest connection (the default rule's tie-break: connected first wins). */
  connectedSeq: number;
}

/** What the registry counts per browser for BrowserInfo.agents / held_tabs. */
export type BrowserCounts = (browserId: string) => { agents: number; heldTabs: number };

export interface BrowserRegistryOptions {
  log: Logger;
  /** Where browsers.json lives; null keeps names in memory only (tests). */
  configDir: string | null;
  /** Builds the link of one browser (its hooks name that browser). */
  newLink: (browserId: string) => ExtensionLink;
  counts: BrowserCounts;
}

/** Browser names compare case-insensitively (--browser work finds Work). */
export const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

export class BrowserRegistry {
  private readonly known = new Map<string, Known>();
  private readonly links = new Map<string, ExtensionLink>();
  private seq = 0;
  private readonly events = new EventEmitter();

  constructor(private readonly o: BrowserRegistryOptions) {
    this.events.setMaxListeners(0); // every action waiting for a first browser listens once
    this.load();
  }

  /** The link of a browser (made on first use: a restored session waits on it before the browser is back). */
  link(browserId: string): ExtensionLink {
    let link = this.links.get(browserId);
    if (!link) {
      link = this.o.newLink(browserId);
      this.links.set(browserId, link);
    }
    return link;
  }

  allLinks(): ExtensionLink[] {
    return [...this.links.values()];
  }

  connectedIds(): string[] {
    return [...this.known.values()]
      .filter((b) => this.links.get(b.id)?.connected === true)
      .sort((a, b) => a.connectedSeq - b.connectedSeq)
      .map((b) => b.id);
  }

  get anyConnected(): boolean {
    return this.connectedIds().length > 0;
  }

  /** Whether an answer was sent by any browser's extension (validated on receive, relayed unchanged). */
  isRelayed(answer: Answer): boolean {
    for (const link of this.links.values()) if (link.isRelayed(answer)) return true;
    return false;
  }

  /**
   * An extension finished its handshake: who it is and the name in force (its own if no other known
   * browser has it, else "<name> 2", 3, ...; with none, its brand's short word numbered the same way).
   * Remembered in browsers.json.
   */
  onExtensionHello(hello: HelloMessage): string {
    const id = hello.browser_id ?? DEFAULT_BROWSER_ID;
    const old = this.known.get(id);
    const brand = hello.browser?.brand ?? old?.brand ?? suggestedName(hello.browser?.product?.split('/')[0]);
    const wanted = hello.browser_name ?? old?.name ?? suggestedName(brand);
    const entry: Known = {
      id,
      name: this.freeName(wanted, id),
      brand,
      connectedSeq: ++this.seq,
      ...((hello.browser?.product ?? old?.product) ? { product: hello.browser?.product ?? old?.product } : {}),
      ...((hello.browser?.user_agent ?? old?.userAgent) ? { userAgent: hello.browser?.user_agent ?? old?.userAgent } : {}),
      ...(old?.lastFocusedAt === undefined ? {} : { lastFocusedAt: old.lastFocusedAt }),
    };
    this.known.set(id, entry);
    this.save();
    return id;
  }

  /** A connection of this browser is up (after its hello_ack): waiters for a first browser go on. */
  noteUp(browserId: string): void {
    this.events.emit('up', browserId);
  }

  /** The person renamed a browser; an error message when another browser has the name. */
  rename(browserId: string, name: string): { ok: true } | { ok: false; message: string } {
    const b = this.known.get(browserId);
    if (!b) return { ok: false, message: 'This browser is not known to the bridge yet; reconnect it, then rename it.' };
    const holder = [...this.known.values()].find((o) => o.id !== browserId && sameName(o.name, name));
    if (holder)
      return {
        ok: false,
        message: `Another browser is already named "${holder.name}" on this bridge; this one keeps the name "${b.name}". Choose a different name (or rename the other browser first).`,
      };
    b.name = name;
    this.save();
    return { ok: true };
  }

  noteFocus(browserId: string, at: number): void {
    const b = this.known.get(browserId);
    if (b) b.lastFocusedAt = at;
  }

  /** The connected browser with that name (case-insensitive), or null. */
  connectedByName(name: string): string | null {
    return this.connectedIds().find((id) => sameName(this.known.get(id)?.name ?? '', name)) ?? null;
  }

  /**
   * The browser an agent naming `name` works in: the connected one with that name, else a known one
   * that is restarting (it left moments ago); null when none (BROWSER_NOT_CONNECTED).
   */
  forAgentName(name: string): string | null {
    const connected = this.connectedByName(name);
    if (connected !== null) return connected;
    const known = [...this.known.values()].find((b) => sameName(b.name, name));
    return known && this.links.get(known.id)?.awayLately(RESTARTING_MS) === true ? known.id : null;
  }

  /** The default rule: the only connected browser; with several, the one focused last (ties or none: connected first). */
  defaultBrowser(): string | null {
    let best: Known | null = null;
    for (const id of this.connectedIds()) {
      const b = this.known.get(id) as Known;
      if (best === null || (b.lastFocusedAt ?? -1) > (best.lastFocusedAt ?? -1)) best = b;
    }
    return best?.id ?? null;
  }

  nameOf(browserId: string | null): string | null {
    return browserId === null ? null : (this.known.get(browserId)?.name ?? null);
  }

  info(browserId: string): BrowserInfo | undefined {
    const b = this.known.get(browserId);
    if (!b) return undefined;
    const c = this.o.counts(b.id);
    return {
      browser_id: b.id,
      name: b.name,
      brand: b.brand,
      connected: this.links.get(b.id)?.connected === true,
      ...(b.product === undefined ? {} : { product: b.product }),
      ...(b.userAgent === undefined ? {} : { user_agent: b.userAgent }),
      ...(b.lastFocusedAt === undefined ? {} : { last_focused_at: b.lastFocusedAt }),
      agents: c.agents,
      held_tabs: c.heldTabs,
    };
  }

  /** Every known browser, connected ones first (in connection order), at most MAX_LISTED. */
  list(except?: string): BrowserInfo[] {
    const connected = new Set(this.connectedIds());
    const ids = [...this.connectedIds(), ...[...this.known.keys()].filter((id) => !connected.has(id))];
    return ids
      .filter((id) => id !== except)
      .slice(0, MAX_LISTED)
      .map((id) => this.info(id) as BrowserInfo);
  }

  /** The names of the connected browsers, quoted for a message (BROWSER_NOT_CONNECTED). */
  connectedNames(): string[] {
    return this.connectedIds().map((id) => this.known.get(id)?.name ?? id);
  }

  /** Resolves with a browser that connects before `deadline`, or null at the deadline. */
  waitForAny(deadline: number): Promise<string | null> {
    return new Promise((resolve) => {
      const done = (id: string | null) => {
        clearTimeout(timer);
        this.events.off('up', done);
        resolve(id);
      };
      const timer = setTimeout(() => done(null), Math.max(0, deadline - Date.now()));
      this.events.on('up', done);
    });
  }

  /** Whether any browser's extension was here and left (or sessions were restored): a first action waits for it. */
  anyAway(): boolean {
    for (const link of this.links.values()) if (link.away) return true;
    return false;
  }

  private freeName(wanted: string, id: string): string {
    const taken = (n: string) => [...this.known.values()].some((b) => b.id !== id && sameName(b.name, n));
    const base = wanted.slice(0, MAX_NAME);
    if (!taken(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = ` ${n}`;
      const candidate = base.slice(0, MAX_NAME - suffix.length) + suffix;
      if (!taken(candidate)) return candidate;
    }
  }

  private get file(): string | null {
    return this.o.configDir === null ? null : path.join(this.o.configDir, BROWSERS_FILE);
  }

  /** Names survive a restart; a missing or damaged file is "no names yet" (extensions send theirs again). */
  private load(): void {
    const file = this.file;
    if (file === null) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.o.log.warn('could not read browsers.json; browsers keep the names their extensions send', { file });
      return;
    }
    const list = (parsed as { browsers?: unknown } | null)?.browsers;
    if (!Array.isArray(list)) return;
    for (const x of list as unknown[]) {
      const b = x as Record<string, unknown> | null;
      if (typeof b?.['browser_id'] !== 'string' || !/^[A-Za-z0-9_-]{7,64}$/.test(b['browser_id'])) continue;
      if (
        typeof b['name'] !== 'string' ||
        b['name'].length < 1 ||
        b['name'].length > MAX_NAME ||
        [...b['name']].some((ch) => ch.charCodeAt(0) < 0x20)
      )
        continue;
      const id = b['browser_id'];
      if (this.known.has(id) || [...this.known.values()].some((k) => sameName(k.name, b['name'] as string))) continue;
      this.known.set(id, {
        id,
        name: b['name'],
        brand: typeof b['brand'] === 'string' && b['brand'].length > 0 ? b['brand'].slice(0, 40) : 'Chrome',
        ...(typeof b['product'] === 'string' && b['product'].length > 0 ? { product: b['product'].slice(0, 100) } : {}),
        connectedSeq: 0,
      });
    }
  }

  /** Written atomically (temp file + rename, 0600): a crash mid-write leaves the old file. */
  private save(): void {
    const file = this.file;
    if (file === null) return;
    const browsers = [...this.known.values()].map((b) => ({
      browser_id: b.id,
      name: b.name,
      brand: b.brand,
      ...(b.product === undefined ? {} : { product: b.product }),
    }));
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, JSON.stringify({ version: 1, browsers }, null, 2) + '\n', { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      this.o.log.warn('could not save browsers.json; browser names hold until the bridge restarts', {
        error: (e as NodeJS.ErrnoException).code ?? 'write failed',
      });
    }
  }
}
