// One-time pairing codes (`browser-use-ext pair`): nobody copies a 43-character secret by hand.
// `pair` writes pairing.json (mode 0600) in the config dir holding the SHA-256 of a short random code
// and its expiry; the person types the code (or opens the printed link) in the extension's side panel,
// which POSTs it to the bridge's /pair endpoint; the bridge answers with the extension secret once and
// deletes the file. Only the extension's Origin may ask (a web page cannot forge Origin), failures are
// rate limited, codes expire after 10 minutes, and only the code's hash is stored.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { configDirId } from '../common/config-dir-id';

export const PAIRING_FILE = 'pairing.json';
export const PAIRING_TTL_MS = 10 * 60_000;
/** 32 upper-case letters and digits without look-alikes (0/O, 1/I): 8 of them carry 40 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface PairingRecord {
  code_sha256: string;
  expires_at: number;
}

const sha = (code: string) => crypto.createHash('sha256').update(normalizeCode(code), 'utf8').digest('hex');

/** Upper-case, no separators or spaces: "k7f2-9qxm" and "K7F2 9QXM" are the same code. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function newPairingCode(): { code: string; record: PairingRecord } {
  const bytes = crypto.randomBytes(8);
  const raw = Array.from(bytes, (b) => ALPHABET.charAt(b % 32)).join('');
  const code = `${raw.slice(0, 4)}-${raw.slice(4)}`;
  return { code, record: { code_sha256: sha(code), expires_at: Date.now() + PAIRING_TTL_MS } };
}

/** Writes a fresh code for the bridge using `dir` (replacing an older one) and returns it. */
export function writePairingCode(dir: string): { code: string; expiresAt: number; file: string } {
  const { code, record } = newPairingCode();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, PAIRING_FILE);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, JSON.stringify(record) + '\n', { mode: 0o600, flag: 'wx' });
  return { code, expiresAt: record.expires_at, file };
}

export type Redeemed = { ok: true } | { ok: false; reason: 'no_code' | 'expired' | 'wrong' };

/** Codes the bridge accepts: the config dir's pairing.json and codes made in-process (tests, harness). */
export class PairingCodes {
  private readonly memory: PairingRecord[] = [];

  constructor(private readonly dir: string | null) {}

  /** Which config dir's pairing.json this bridge reads (configDirId), or null for in-process codes only. */
  configDirId(): string | null {
    return this.dir === null ? null : configDirId(this.dir);
  }

  /** A code valid for this bridge only (not written to disk). */
  create(): string {
    const { code, record } = newPairingCode();
    this.memory.push(record);
    return code;
  }

  private fileRecord(): PairingRecord | null {
    if (!this.dir) return null;
    try {
      const r = JSON.parse(fs.readFileSync(path.join(this.dir, PAIRING_FILE), 'utf8')) as Partial<PairingRecord>;
      return typeof r.code_sha256 === 'string' && typeof r.expires_at === 'number'
        ? { code_sha256: r.code_sha256, expires_at: r.expires_at }
        : null;
    } catch {
      return null;
    }
  }

  /** One-time: a matching code is consumed. */
  redeem(code: string): Redeemed {
    const now = Date.now();
    const given = Buffer.from(sha(code), 'hex');
    const matches = (r: PairingRecord) => {
      const want = Buffer.from(r.code_sha256, 'hex');
      return want.length === given.length && crypto.timingSafeEqual(want, given);
    };
    const fromFile = this.fileRecord();
    const candidates = [...this.memory, ...(fromFile ? [fromFile] : [])];
    if (candidates.length === 0) return { ok: false, reason: 'no_code' };
    const hit = candidates.find(matches);
    if (!hit) return { ok: false, reason: 'wrong' };
    if (hit === fromFile && this.dir) fs.rmSync(path.join(this.dir, PAIRING_FILE), { force: true });
    else this.memory.splice(this.memory.indexOf(hit), 1);
    return hit.expires_at < now ? { ok: false, reason: 'expired' } : { ok: true };
  }
}
