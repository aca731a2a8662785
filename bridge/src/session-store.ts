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

/** Reads the file; anything missing, unreadable or malformed is "no sessions" (never a crash). */
export function loadSessions(file: string): PersistedSession[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(raw) as Partial<PersistedState>;
    if (parsed.version !== 1 || !Array.isArray(parsed.sessions)) return [];
    return parsed.sessions.filter(isSession);
  } catch {
    return [];
  }
}

function isSession(x: unknown): x is PersistedSession {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    typeof s['session_id'] === 'string' &&
    typeof s['token_sha256'] === 'string' &&
    /^[0-9a-f]{64}$/.test(s['token_sha256']) &&
    typeof s['max_tabs'] === 'number' &&
    (s['current_tab'] === null || typeof s['current_tab'] === 'number') &&
    Array.isArray(s['capabilities']) &&
    Array.isArray(s['tabs']) &&
    (s['tabs'] as unknown[]).every(
      (t) => typeof t === 'object' && t !== null && typeof (t as Record<string, unknown>)['tab_id'] === 'number',
    )
  );
}

/** Writes atomically: a reader (or a crash mid-write) sees the old file or the new one, never half. */
export function saveSessions(file: string, sessions: PersistedSession[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const state: PersistedState = { version: 1, saved_at: new Date().toISOString(), sessions };
  fs.writeFileSync(tmp, JSON.stringify(state) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Coalesces bursts of changes (every action result changes leases) into one write per delayMs. */
export class DebouncedWriter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  constructor(
    private readonly write: () => void,
    private readonly delayMs = 50,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref?.();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    try {
      this.write();
    } catch (e) {
      this.onError(e);
    }
  }

  /** Writes what is pending, then never again (the bridge is closing). */
  stop(): void {
    this.flush();
    this.stopped = true;
  }
}
