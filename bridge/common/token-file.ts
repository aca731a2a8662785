// Files of per-client bearer tokens kept beside the secrets (MCP's mcp-tokens.json, the CDP
// endpoint's cdp-clients.json). Both follow one pattern:
//   - a token is a fixed prefix + 32 random bytes (base64url), shown once and never stored: the file
//     holds only its SHA-256, so a leaked file leaks no usable token. 256 random bits leave nothing
//     to brute-force, so a plain hash is enough (no salt, no slow KDF);
//   - a presented token is compared against every stored hash in constant time;
//   - the file is written whole to a temporary file (0600) and renamed over the old one, so a reader
//     (the running bridge, another CLI) sees either the old or the new list, never half of one.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A client name: 1-64 letters, digits, dot, dash or underscore, not starting with a dot or dash
 * (so it never reads as a CLI flag or a hidden file). */
export const CLIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const sha256Hex = (s: string): string => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

export const isSha256Hex = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** A fresh token: `prefix` + 32 random bytes in base64url (43 characters). */
export const newToken = (prefix: string): string => prefix + crypto.randomBytes(32).toString('base64url');

/**
 * The record whose sha256 is the presented token's hash, or null. Every record is compared (no early
 * exit) with timingSafeEqual, so the time taken does not say how much of a hash matched.
 */
export function findByToken<T extends { sha256: string }>(token: string, records: readonly T[]): T | null {
  const presented = Buffer.from(sha256Hex(token), 'hex');
  let match: T | null = null;
  for (const r of records) {
    const stored = Buffer.from(r.sha256, 'hex');
    if (stored.length === presented.length && crypto.timingSafeEqual(presented, stored)) match = r;
  }
  return match;
}

/** Parsed JSON of `file`, or undefined when it does not exist. Invalid JSON throws `damaged`. */
export function readJsonFile(file: string, damaged: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(damaged);
  }
}

/** Writes `value` as JSON to `file` (0600, its folder 0700) by renaming a finished temporary file over it. */
export function writeJsonFileAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Unique per writer: the bridge and a CLI may write the same file at the same moment.
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

const LOCK_WAIT_MS = 2_000;
/** A lock older than this was left by a process that died mid-write. */
const LOCK_STALE_MS = 10_000;

/**
 * Runs a read-modify-write of `file` under a lock file beside it (`<file>.lock`, created exclusively),
 * so two processes that both change the list (the bridge noting a URL's last use while a CLI makes a
 * new URL) cannot lose each other's change. Each holder keeps it for a millisecond or so; a lock
 * left by a crashed process is taken over after 10 s.
 */
export function withFileLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx', 0o600));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > LOCK_STALE_MS) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `${file} is being changed by another process (lock ${lock}). Try again; delete the lock file if no browser-use-ext command is running.`,
        );
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
