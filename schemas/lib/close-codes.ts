// WebSocket close codes of the protocol beyond RFC 6455's, generated from schemas/v1/defs/close_code.json
// (each code's meaning is there). Both ends use them: the bridge closes a refused handshake with them, and
// a client that finds the bridge's proof wrong (its own secret is outdated) closes with secretRefused so the
// bridge can log it. The close reason says what to do next and never anything about the secret itself.
export { CLOSE_CODES, type CloseCode } from '../generated/close-codes';
