// The challenge-response handshake every connection passes before anything else:
// hello -> auth_challenge (with the bridge's proof, so a client can tell an impostor bridge) ->
// auth_response -> hello_ack (sent by extension-link.ts or agent-gateway.ts). Wrong proofs are
// answered late through the failure gate (rate-limit.ts: bounded wrong answers per second, excess
// closed unanswered, one summary line per window); refusals are logged without secrets.
import type { AuthResponseMessage, HelloMessage } from '../../schemas/generated/protocol';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { errorInfo } from '../../schemas/lib/wire';
import { bridgeProof, clientNonceBytes, clientProof, newNonce, proofsEqual } from '../common/auth';
import { cli } from '../common/cli-invocation';
import type { Logger } from '../common/log';
import type { FailureGate, RefusalLog, WrongTry } from '../common/rate-limit';
import type { Secrets } from '../common/secrets';
import { CLOSE, type Peer, type Role } from './peer';

export interface HandshakeOptions {
  log: Logger;
  secrets: Secrets;
  protocolVersion: number;
  failures: FailureGate;
  /** Where refusals before the proof are logged (summarised per window: anybody can trigger them). */
  refusals: RefusalLog;
  handshakeTimeoutMs: number;
  /** The peer proved its secret: hand it to its side (extension or agent). */
  onReady(peer: Peer, hello: HelloMessage): void;
  /** Closes a connection at once without any answer (a wrong try the gate will not answer). */
  drop(peer: Peer): void;
}

export class Handshake {
  /** Wrong proofs waiting for their answer, so a connection that goes away frees its place. */
  private readonly waiting = new WeakMap<Peer, WrongTry>();

  constructor(private readonly o: HandshakeOptions) {}

  /** The connection closed: a wrong proof still waiting leaves the gate's queue. */
  gone(peer: Peer): void {
    this.waiting.get(peer)?.cancel();
    this.waiting.delete(peer);
  }

  /** Handshake refusals are WARN: the reason and who, never the secret or a proof. */
  refused(peer: Peer, reason: string): void {
    this.o.refusals.refused(`handshake refused (${reason})`, 'handshake refused', {
      peer: peer.id,
      role: peer.role,
      remote: peer.remoteAddress,
      reason,
    });
  }

  private secretFor(role: Role): string {
    return role === 'extension' ? this.o.secrets.extension_secret : this.o.secrets.agent_secret;
  }

  onHello(peer: Peer, hello: HelloMessage): void {
    if (hello.role !== peer.role) {
      peer.sendError(
        errorInfo(
          'UNAUTHORIZED',
          `This endpoint is for role "${peer.role}", but hello says "${hello.role}". Connect to /${hello.role} instead.`,
          'bridge',
        ),
        'hello',
      );
      this.refused(peer, 'role does not match endpoint');
      peer.close(CLOSE.policy, 'role does not match endpoint');
      return;
    }
    if (hello.protocol_version !== this.o.protocolVersion) {
      const older = hello.protocol_version < this.o.protocolVersion;
      // The package is not on a registry: name what works, the bridge of the extension's release.
      const upgrade = older
        ? `upgrade the ${hello.role} (${hello.client.name})`
        : 'upgrade the bridge: install the browser-use-ext bridge package of the same release as the extension (in a checkout: git pull && npm run build)';
      peer.sendError(
        errorInfo(
          'VERSION_MISMATCH',
          `Protocol version ${hello.protocol_version} is not supported; this bridge speaks ${this.o.protocolVersion}. To fix it, ${upgrade}.`,
          'bridge',
          {
            bridge_protocol_version: this.o.protocolVersion,
            peer_protocol_version: hello.protocol_version,
            upgrade: older ? hello.role : 'bridge',
          },
        ),
        'hello',
      );
      this.refused(peer, 'protocol version mismatch');
      peer.close(
        CLOSE_CODES.versionMismatch,
        `protocol version mismatch: bridge speaks ${this.o.protocolVersion}, ${peer.role} ${hello.protocol_version}; upgrade the ${older ? peer.role : 'bridge'}`,
      );
      return;
    }
    if (clientNonceBytes(hello.client_nonce) < 16) {
      peer.sendError(
        errorInfo(
          'INVALID_MESSAGE',
          'hello.client_nonce must carry at least 16 random bytes (base64). Generate a fresh one per connection.',
          'bridge',
          { instance_path: '/client_nonce' },
        ),
        'hello',
      );
      this.refused(peer, 'weak client nonce');
      peer.close(CLOSE.policy, 'weak client nonce');
      return;
    }
    peer.hello = hello;
    peer.nonce = newNonce();
    peer.stage = 'auth';
    peer.send({ type: 'auth_challenge', nonce: peer.nonce, bridge_proof: bridgeProof(this.secretFor(peer.role), hello.client_nonce) });
  }

  onAuthResponse(peer: Peer, response: AuthResponseMessage): void {
    const hello = peer.hello;
    const nonce = peer.nonce;
    if (!hello || !nonce) return;
    const expected = clientProof(this.secretFor(peer.role), peer.role, nonce, hello.client_nonce);
    if (!proofsEqual(expected, response.proof)) {
      // Verified first, so a right proof never waits for the gate; a wrong one is answered when the
      // gate has a slot, or the connection is closed unanswered when too many wait (rate-limit.ts).
      peer.stage = 'refused';
      peer.nonce = null;
      const wrong = this.o.failures.fail(`${peer.role} secret`, {
        remote: peer.remoteAddress,
        deadline: peer.connectedAt + this.o.handshakeTimeoutMs,
        message: 'handshake refused: wrong proof (more in this window are summarised in one line)',
        fields: { peer: peer.id, role: peer.role, remote: peer.remoteAddress },
      });
      this.waiting.set(peer, wrong);
      void wrong.outcome.then((outcome) => {
        this.waiting.delete(peer);
        if (outcome === 'drop') return this.o.drop(peer);
        const how =
          peer.role === 'extension'
            ? `Paste the extension secret shown by \`${cli('bridge --print-pairing')}\` into the extension's options page.`
            : `Set BROWSER_USE_EXT_AGENT_SECRET to the agent secret shown by \`${cli('bridge --print-pairing')}\` (or run on the machine where the bridge created its secrets file).`;
        peer.sendError(
          errorInfo('UNAUTHORIZED', `Authentication failed: the proof does not match this bridge's ${peer.role} secret. ${how}`, 'bridge'),
          'auth_response',
        );
        // A close reason is at most 123 bytes. Pairing is for the extension; an agent checks its secret.
        peer.close(
          CLOSE_CODES.secretRefused,
          peer.role === 'extension'
            ? `pairing secret refused: pair the extension again (${cli('pair')})`
            : "agent secret refused: check BROWSER_USE_EXT_AGENT_SECRET or the bridge's secrets.json",
        );
      });
      return;
    }
    peer.nonce = null;
    peer.stage = 'ready';
    peer.client = hello.client;
    peer.capabilities = hello.capabilities;
    this.o.onReady(peer, hello);
  }
}
