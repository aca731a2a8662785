// Sessions and tab leases survive a bridge restart: a small JSON file in the
// config dir, written atomically (temp file + rename, mode 0600). It holds what resuming needs and
// no secret: the SHA-256 of each session token (the agent presents the token itself), never the
// token; no recorded results, no page content beyond the leased tabs' URLs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const SESSIONS_FILE = 'sessions.json';

export interface PersistedLease {
  tab_id: number;
  url: string | null;
  leased_at: number;
}

export interface PersistedSession {
  session_id: string;
  token_sha256: string;
  max_tabs: number;
  current_tab: number | null;
  capabilities: string[];
  /** The browser the session works in (browsers.ts); absent in files from before several browsers, and for an unbound session. */
  browser_id?: string;
  tabs: PersistedLease[];
}

export interface PersistedState {
  version: 1;
  saved_at: string;
  sessions: PersistedSession[];
}

export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What loadSessions says about a file it could not use whole (the bridge logs it at WARN). */
export type LoadWarning = (message: string, fields: Record<string, unknown>) => void;

/**
 * Reads the file. A missing file is "no sessions"; an unreadable, malformed or foreign one, and each
 * session in it with fields out of the protocol's ranges, is dropped with a warning that says so and
 * what it means for the agents (they start new sessions), never a crash and never silence.
 */
export function loadSessions(file: string, warn: LoadWarning = () => undefined): PersistedSession[] {
  const lost = 'Agents that were connected start new sessions; their tabs stay open in the browser.';
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(`Could not read the saved sessions: ${e instanceof Error ? e.message : String(e)}. ${lost}`, { file });
    return [];
  }
  let parsed: Partial<PersistedState>;
  try {
    parsed = JSON.parse(raw) as Partial<PersistedState>;
  } catch {
    warn(`The saved sessions file is not valid JSON (${raw.length === 0 ? 'empty' : 'truncated or damaged'}). ${lost}`, { file });
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.version !== 1 || !Array.isArray(parsed.sessions)) {
    warn(`The saved sessions file is not one this bridge wrote (expected version 1 with a sessions list). ${lost}`, { file });
    return [];
  }
  const kept = parsed.sessions.filter(isSession);
  const dropped = parsed.sessions.length - kept.length;
  if (dropped > 0)
    warn(`Dropped ${dropped} saved session(s) with fields out of range; those agents start new sessions.`, { file, kept: kept.length });
  return kept;
}

const isTabId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** A session as saveSessions writes it, with every field in the range the protocol allows (hello_ack). */
function isSession(x: unknown): x is PersistedSession {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    typeof s['session_id'] === 'string' &&
    s['session_id'].length >= 1 &&
    s['session_id'].length <= 100 &&
    typeof s['token_sha256'] === 'string' &&
    /^[0-9a-f]{64}$/.test(s['token_sha256']) &&
    typeof s['max_tabs'] === 'number' &&
    Number.isInteger(s['max_tabs']) &&
    s['max_tabs'] >= 1 &&
    s['max_tabs'] <= 100 &&
    (s['current_tab'] === null || isTabId(s['current_tab'])) &&
    (s['browser_id'] === undefined || (typeof s['browser_id'] === 'string' && /^[A-Za-z0-9_-]{7,64}$/.test(s['browser_id']))) &&
    Array.isArray(s['capabilities']) &&
    (s['capabilities'] as unknown[]).every((c) => typeof c === 'string') &&
    Array.isArray(s['tabs']) &&
    (s['tabs'] as unknown[]).every((t) => {
      if (typeof t !== 'object' || t === null) return false;
      const l = t as Record<string, unknown>;
      return isTabId(l['tab_id']) && (l['url'] === null || typeof l['url'] === 'string') && typeof l['leased_at'] === 'number';
    })
  );
}

/** Writes atomically: a reader (or a crash mid-write) sees the old file or the new one, never half.
 * A failed write (full disk) removes its temp file before it throws. */
export function saveSessions(file: string, sessions: PersistedSession[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const state: PersistedState = { version: 1, saved_at: new Date().toISOString(), sessions };
  try {
    fs.writeFileSync(tmp, JSON.stringify(state) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Coalesces bursts of changes (every action result changes leases) into one write per delayMs. */
export class DebouncedWriter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** A write failed and none has succeeded since: later failures of the streak are not reported again. */
  private failing = false;
  /** The pending timer is the failure streak's retry, not a debounced change. */
  private retrying = false;
  constructor(
    private readonly write: () => void,
    private readonly delayMs = 50,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly onRecovered: () => void = () => undefined,
    /** While failing, a write is tried again this often even without changes, so the end of the
     * streak (disk space freed) is noticed and told without waiting for the next change. */
    private readonly retryMs = 5_000,
  ) {}

  schedule(): void {
    if (this.stopped || (this.timer && !this.retrying)) return;
    if (this.timer) clearTimeout(this.timer); // a change during a failure streak retries now, not at the next retry
    this.retrying = false;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    try {
      this.write();
      if (this.failing) this.onRecovered();
      this.failing = false;
    } catch (e) {
      // One line per streak (a full disk fails every write), not one per change.
      if (!this.failing) this.onError(e);
      this.failing = true;
      this.retrying = true;
      this.timer = setTimeout(() => this.flush(), this.retryMs);
      this.timer.unref?.();
    }
  }

  /** Writes what is pending, then never again (the bridge is closing). */
  stop(): void {
    this.flush();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
