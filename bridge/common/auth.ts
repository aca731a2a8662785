// Challenge-response handshake. HMAC-SHA256 keyed with the secret string's UTF-8
// bytes; proofs are lowercase hex. The secret itself never crosses the wire:
//   bridge_proof = HMAC(secret, "bridge:" + client_nonce)              (bridge -> client)
//   proof        = HMAC(secret, role + ":" + nonce + ":" + client_nonce) (client -> bridge)
import crypto from 'node:crypto';

export type AuthRole = 'agent' | 'extension';

export function hmacHex(secret: string, message: string): string {
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8').digest('hex');
}

/** 32 random bytes, base64: the bridge's per-connection challenge. */
export function newNonce(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64');
}

export function bridgeProof(secret: string, clientNonce: string): string {
  return hmacHex(secret, `bridge:${clientNonce}`);
}

export function clientProof(secret: string, role: AuthRole, nonce: string, clientNonce: string): string {
  return hmacHex(secret, `${role}:${nonce}:${clientNonce}`);
}

/** Constant-time comparison of two hex proofs (a wrong length is simply unequal). */
export function proofsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The client nonce must carry at least 16 random bytes (the schema checks the alphabet). */
export function clientNonceBytes(clientNonce: string): number {
  return Buffer.from(clientNonce.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length;
}
