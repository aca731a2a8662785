// Checks on the HTTP upgrade request, before a WebSocket is accepted (answer 403 otherwise).
// WebSocket handshakes are not covered by the same-origin policy: any web page can open
// ws://127.0.0.1:<port>. So (peers.md section 3):
//   - /extension accepts only Origin chrome-extension://<our id>;
//   - /agent refuses every Origin (browsers always send one; Python and Node clients send none);
//   - Host must be a loopback name with our port, which defeats DNS rebinding (a page on
//     evil.example whose name now resolves to 127.0.0.1 still sends Host: evil.example).
import type { IncomingHttpHeaders } from 'node:http';

export interface UpgradePolicy {
  port: number;
  extensionOrigins: readonly string[];
  /** Extra Host names accepted besides loopback (the bound address with --allow-remote). */
  extraHosts?: readonly string[];
  /**
   * Any Host name with our port (--allow-remote on a wildcard address: remote peers use names we cannot know). Browsers still fail the
   * Origin rules.
   */
  anyHostName?: boolean;
}

export type UpgradeVerdict = { ok: true } | { ok: false; status: 403 | 404; reason: string };

/** How a refusal under the /agent rule names the endpoint the caller used (/mcp and /cdp share the rule). */
export interface EndpointName {
  /** What the caller may not do: "connect to /agent", "call /mcp", "use the CDP endpoint". */
  action: string;
  /** Who calls it legitimately, as local programs that send no Origin: "agents", "CDP clients". */
  callers: string;
}

export const AGENT_ENDPOINT: EndpointName = { action: 'connect to /agent', callers: 'agents' };

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Splits a Host header into name and port ("[::1]:8765" -> ["[::1]", 8765]). */
export function parseHostHeader(value: string): { name: string; port: number | null } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(value.trim().toLowerCase());
  if (!m) return { name: '', port: null };
  return { name: m[1] ?? '', port: m[2] === undefined ? null : Number(m[2]) };
}

export function checkUpgrade(
  role: 'agent' | 'extension',
  headers: IncomingHttpHeaders,
  policy: UpgradePolicy,
  endpoint: EndpointName = AGENT_ENDPOINT,
): UpgradeVerdict {
  const host = headers.host;
  if (!host) return { ok: false, status: 403, reason: 'missing Host header' };
  const { name, port } = parseHostHeader(host);
  const allowed = [
    ...LOOPBACK_HOSTS,
    ...(policy.extraHosts ?? []).map((h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h).toLowerCase()),
  ];
  if ((!policy.anyHostName && !allowed.includes(name)) || port !== policy.port) {
    return {
      ok: false,
      status: 403,
      reason: `Host "${host}" is not this bridge (expected 127.0.0.1:${policy.port}); refusing a possible DNS-rebinding request`,
    };
  }
  const origin = headers.origin;
  if (role === 'extension') {
    if (origin === undefined || !policy.extensionOrigins.includes(origin)) {
      return {
        ok: false,
        status: 403,
        reason: `Origin ${origin === undefined ? '(none)' : JSON.stringify(origin)} may not connect to /extension; only ${policy.extensionOrigins.join(', ')}`,
      };
    }
    return { ok: true };
  }
  if (origin !== undefined) {
    return {
      ok: false,
      status: 403,
      reason: `browser Origin ${JSON.stringify(origin)} may not ${endpoint.action}; ${endpoint.callers} are local programs that send no Origin`,
    };
  }
  return { ok: true };
}
