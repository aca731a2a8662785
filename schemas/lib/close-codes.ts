// WebSocket close codes of the protocol beyond RFC 6455's (the 4000-4999 range is for applications).
// Both ends use them: the bridge closes a refused handshake with them, and a client that finds the
// bridge's proof wrong (its own secret is outdated) closes with secretRefused so the bridge can log
// it. The close reason says what to do next and never anything about the secret itself.
export const CLOSE_CODES = {
  /** The pairing secret did not match (either side found the other's HMAC proof wrong). */
  secretRefused: 4001,
  /** hello.protocol_version is not the bridge's; the reason names which side to upgrade. */
  versionMismatch: 4002,
  /** The person disconnected this agent session from the extension (session_control disconnect). */
  disconnectedByPerson: 4003,
} as const;
