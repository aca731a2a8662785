// Per-install pairing secrets. One file, owner-only (0600), in the user's config dir:
//   ${BROWSER_USE_EXT_CONFIG_DIR:-${XDG_CONFIG_HOME:-~/.config}/browser-use-ext}/secrets.json
//   {"extension_secret": "...", "agent_secret": "..."}  (base64url of 32 random bytes each)
// The extension proves extension_secret (pasted once into its options page); agents prove
// agent_secret (env BROWSER_USE_EXT_AGENT_SECRET, else this file). Never log these values.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Secrets {
  extension_secret: string;
  agent_secret: string;
}

export const SECRETS_FILE = 'secrets.json';
export const AGENT_SECRET_ENV = 'BROWSER_USE_EXT_AGENT_SECRET';
export const CONFIG_DIR_ENV = 'BROWSER_USE_EXT_CONFIG_DIR';

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[CONFIG_DIR_ENV];
  if (explicit) return path.resolve(explicit);
  const xdg = env['XDG_CONFIG_HOME'];
  return path.join(xdg ? path.resolve(xdg) : path.join(os.homedir(), '.config'), 'browser-use-ext');
}

export function newSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

const isSecret = (v: unknown): v is string => typeof v === 'string' && v.length >= 16;

/** Reads secrets.json; throws with a message that says how to fix a broken file. */
export function readSecrets(dir: string): Secrets | null {
  const file = path.join(dir, SECRETS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON. Delete it and restart the bridge to create new secrets (then pair the extension again).`);
  }
  const o = parsed as Record<string, unknown>;
  if (!isSecret(o['extension_secret']) || !isSecret(o['agent_secret'])) {
    throw new Error(
      `${file} lacks extension_secret/agent_secret. Delete it and restart the bridge to create new secrets (then pair the extension again).`,
    );
  }
  return { extension_secret: o['extension_secret'], agent_secret: o['agent_secret'] };
}

/**
 * Loads the install's secrets, creating them (dir 0700, file 0600) on first run. A file readable by
 * others is tightened to 0600 and reported, because anyone who reads it can drive the browser.
 */
export function loadOrCreateSecrets(dir: string = configDir()): { secrets: Secrets; created: boolean; file: string; fixedMode: boolean } {
  const file = path.join(dir, SECRETS_FILE);
  const existing = readSecrets(dir);
  if (existing) {
    let fixedMode = false;
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) {
      fs.chmodSync(file, 0o600);
      fixedMode = true;
    }
    return { secrets: existing, created: false, file, fixedMode };
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secrets: Secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
  // 'wx': never overwrite a file another bridge created a moment ago.
  try {
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readSecrets(dir);
      if (raced) return { secrets: raced, created: false, file, fixedMode: false };
    }
    throw e;
  }
  return { secrets, created: true, file, fixedMode: false };
}

/** The agent credential for clients: env first, then the install's secrets file. */
export function readAgentSecret(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env[AGENT_SECRET_ENV];
  if (fromEnv) return fromEnv;
  return readSecrets(configDir(env))?.agent_secret ?? null;
}
