// Per-client bearer tokens for MCP over HTTP (/mcp on the bridge). `mcp-token add NAME` prints a
// fresh token once and stores only its SHA-256 in <config dir>/mcp-tokens.json (0600), so the file
// leaking does not leak a usable token; `revoke` removes it and takes effect on the next request
// (the bridge reads the file per request, no restart). Tokens are 32 random bytes: a plain hash is
// enough (nothing to brute-force), and the comparison is constant-time.
import path from 'node:path';

import { cli } from '../../common/cli-invocation';
import { nameTakenMessage } from '../../common/name-taken';
import { CLIENT_NAME, findByToken, isSha256Hex, newToken, readJsonFile, sha256Hex, writeJsonFileAtomic } from '../../common/token-file';

export const MCP_TOKENS_FILE = 'mcp-tokens.json';
const PREFIX = 'bux_mcp_';

export interface TokenRecord {
  name: string;
  sha256: string;
  created_at: string;
  /** The browser the token's sessions work in, by name (`mcp-token add NAME --browser B`); absent: the bridge's choice. */
  browser?: string;
}

export class McpTokenStore {
  readonly file: string;

  constructor(configDir: string) {
    this.file = path.join(configDir, MCP_TOKENS_FILE);
  }

  list(): TokenRecord[] {
    const parsed = readJsonFile(
      this.file,
      `${this.file} is not valid JSON. Delete it and issue new tokens with \`${cli('mcp-token add NAME')}\`.`,
    );
    if (parsed === undefined) return [];
    if (typeof parsed !== 'object' || parsed === null)
      throw new Error(`${this.file} is not a token list. Delete it and issue new tokens with \`${cli('mcp-token add NAME')}\`.`);
    const tokens = (parsed as { tokens?: unknown }).tokens;
    if (!Array.isArray(tokens)) return [];
    return tokens.filter(
      (t): t is TokenRecord => typeof t === 'object' && t !== null && typeof t.name === 'string' && isSha256Hex(t.sha256),
    );
  }

  /** Issues a token for a new client name (its sessions work in `browser` when given); returns the token (shown once, never stored). */
  add(name: string, browser?: string, o: { replace?: boolean } = {}): string {
    if (!CLIENT_NAME.test(name))
      throw new Error(`Token name "${name}" must be 1-64 letters, digits, dot, dash or underscore (e.g. claude-desktop).`);
    const tokens = this.list();
    const kept = tokens.filter((t) => t.name !== name);
    if (kept.length !== tokens.length && !o.replace) throw new Error(nameTakenMessage('A token', name, `mcp-token add ${name}`));
    const token = newToken(PREFIX);
    const record: TokenRecord = { name, sha256: sha256Hex(token), created_at: new Date().toISOString() };
    if (browser !== undefined) record.browser = browser;
    this.write([...kept, record]);
    return token;
  }

  /** Removes a token; false when there was none by that name. */
  revoke(name: string): boolean {
    const tokens = this.list();
    const kept = tokens.filter((t) => t.name !== name);
    if (kept.length === tokens.length) return false;
    this.write(kept);
    return true;
  }

  /** The name of the client a presented token belongs to, or null. Constant-time per record. */
  verify(token: string): string | null {
    return this.find(token)?.name ?? null;
  }

  /** The record of a presented token (its name and browser), or null. Constant-time per record. */
  find(token: string): TokenRecord | null {
    const r = findByToken(token, this.list());
    if (!r) return null;
    return typeof r.browser === 'string' && r.browser !== '' ? r : { name: r.name, sha256: r.sha256, created_at: r.created_at };
  }

  private write(tokens: TokenRecord[]): void {
    writeJsonFileAtomic(this.file, { tokens });
  }
}
