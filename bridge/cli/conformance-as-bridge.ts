// The kit's second mode: act as the bridge for an extension-side implementation. A reference
// BridgeServer listens on loopback; once the extension under test has paired (extension secret)
// and connected, the same checks run through it, so every action and error code reaches that
// extension and every action_result it sends is checked against the schemas.
import { type CheckResult, runConformance } from '../agents/conformance/checks';
import type { Logger } from '../common/log';
import type { Secrets } from '../common/secrets';
import { createBridge } from './wire';

export interface AsBridgeOptions {
  secrets: Secrets;
  port?: number;
  extensionOrigins?: string[];
  waitForExtensionMs?: number;
  logger?: Logger;
  /** Called once listening, with the URL the extension under test must dial. */
  onListening?: (extensionUrl: string) => void | Promise<void>;
  onResult?: (r: CheckResult) => void;
}

export async function runAsBridge(o: AsBridgeOptions): Promise<CheckResult[]> {
  const bridge = createBridge({
    port: o.port ?? 0,
    secrets: o.secrets,
    ...(o.logger ? { logger: o.logger } : { logLevel: 'error' }),
    ...(o.extensionOrigins ? { extensionOrigins: o.extensionOrigins } : {}),
  });
  await bridge.start();
  try {
    const up = bridge.waitForExtension(o.waitForExtensionMs ?? 120_000);
    await o.onListening?.(bridge.extensionUrl);
    try {
      await up;
    } catch {
      const r: CheckResult = {
        section: 'handshake',
        name: 'an extension connects and completes the handshake',
        outcome: 'fail',
        detail: `no extension completed the handshake on ${bridge.extensionUrl} within ${o.waitForExtensionMs ?? 120_000} ms`,
      };
      o.onResult?.(r);
      return [r];
    }
    const connected: CheckResult = {
      section: 'handshake',
      name: 'an extension connects and completes the handshake',
      outcome: 'pass',
      detail: '',
    };
    o.onResult?.(connected);
    return [
      connected,
      ...(await runConformance({
        against: bridge.agentUrl,
        secret: o.secrets.agent_secret,
        ...(o.onResult ? { onResult: o.onResult } : {}),
      })),
    ];
  } finally {
    await bridge.close();
  }
}
