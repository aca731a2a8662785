// The conformance checks, as an agent against a bridge (and, through it, the extension side):
// handshake, schema checks both ways, every action of schemas/v1/actions with its result checked
// against the action's result schema, and the error codes each provoked by its situation.
import crypto from 'node:crypto';

import type { ActionResultMessage, ProtocolMessage } from '../../../schemas/generated/protocol';
import {
  ACTION_NAMES,
  ACTION_VALIDATORS,
  type ActionName,
  type ActionParams,
  type ErrorCode,
  PROTOCOL_VERSION,
} from '../../../schemas/generated/registry';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { checkMessage } from '../../../schemas/lib/wire';
import { AgentClient } from '../../client/agent-client';
import { bridgeProof, clientProof, proofsEqual } from '../../common/auth';
import { ConformancePageServer } from './page';
import { isType, RawPeer } from './raw-peer';

export type Outcome = 'pass' | 'fail' | 'skip';
export interface CheckResult {
  section: 'handshake' | 'schema' | 'action' | 'error_code';
  name: string;
  outcome: Outcome;
  detail: string;
}

export interface ConformanceOptions {
  /** ws://127.0.0.1:PORT/agent */
  against: string;
  secret: string;
  onResult?: (r: CheckResult) => void;
}

const nonce = () => crypto.randomBytes(24).toString('base64');
const hello = (clientNonce: string, extra: Record<string, unknown> = {}) => ({
  type: 'hello',
  role: 'agent',
  protocol_version: PROTOCOL_VERSION,
  client: { name: 'browser-use-ext-conformance', version: '1' },
  capabilities: [],
  client_nonce: clientNonce,
  ...extra,
});

/** Typed errors an action may legitimately answer in a person's browser (settings, network). */
const ACCEPTED_ERRORS: Partial<Record<ActionName, ErrorCode[]>> = {
  evaluate: ['NOT_PERMITTED'],
  search: ['NAVIGATION_FAILED', 'TIMEOUT'],
  wait_for_navigation: ['TIMEOUT'],
  wait_for_network_idle: ['TIMEOUT'],
  screenshot: ['RESTRICTED_PAGE', 'OPERATION_FAILED_IN_TARGET'],
  open_tool: ['TARGET_ELEMENT_NOT_FOUND'],
  drag_and_drop: ['TARGET_ELEMENT_NOT_INTERACTABLE', 'OPERATION_FAILED_IN_TARGET'],
};

export async function runConformance(o: ConformanceOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const add = (r: CheckResult) => {
    results.push(r);
    o.onResult?.(r);
  };
  const check = async (section: CheckResult['section'], name: string, fn: () => Promise<string | true>) => {
    try {
      const v = await fn();
      add({ section, name, outcome: v === true ? 'pass' : 'fail', detail: v === true ? '' : v });
    } catch (e) {
      add({ section, name, outcome: 'fail', detail: e instanceof Error ? e.message : String(e) });
    }
  };
  const peers: RawPeer[] = [];
  const raw = async (headers: Record<string, string> = {}) => {
    const p = await RawPeer.open(o.against, headers);
    peers.push(p);
    return p;
  };

  // --- handshake ----------------------------------------------------------------------------
  await check('handshake', 'hello -> auth_challenge whose bridge_proof verifies -> auth_response -> hello_ack', async () => {
    const p = await raw();
    const cn = nonce();
    p.send(hello(cn));
    const ch = await p.next(isType('auth_challenge'));
    if (!ch) return `no auth_challenge (received ${JSON.stringify(p.received.map((m) => m.type))}, close ${p.closeCode})`;
    if (!proofsEqual(bridgeProof(o.secret, cn), ch.bridge_proof)) return 'bridge_proof does not verify with the agent secret';
    p.send({ type: 'auth_response', proof: clientProof(o.secret, 'agent', ch.nonce, cn) });
    const ack = await p.next(isType('hello_ack'));
    if (!ack) return `no hello_ack (close ${p.closeCode})`;
    p.send({ type: 'ping', sent_at: Date.now() });
    const pong = await p.next(isType('pong'));
    return pong ? true : 'hello_ack came, but ping got no pong';
  });
  await check('handshake', 'a wrong secret is refused: UNAUTHORIZED, close 4001 (secret refused)', async () => {
    const p = await raw();
    const cn = nonce();
    p.send(hello(cn));
    const ch = await p.next(isType('auth_challenge'));
    if (!ch) return 'no auth_challenge';
    p.send({ type: 'auth_response', proof: clientProof('not-the-secret-' + nonce(), 'agent', ch.nonce, cn) });
    const err = await p.next(isType('error'));
    const code = await p.waitClose();
    return err?.error_info.error_code === 'UNAUTHORIZED' && code === CLOSE_CODES.secretRefused
      ? true
      : `got ${err?.error_info.error_code ?? 'no error'} and close ${code}`;
  });
  await check('handshake', 'an unknown protocol_version is refused with VERSION_MISMATCH', async () => {
    const p = await raw();
    p.send(hello(nonce(), { protocol_version: 999 }));
    const err = await p.next(isType('error'));
    return err?.error_info.error_code === 'VERSION_MISMATCH'
      ? true
      : `got ${err?.error_info.error_code ?? `no error (close ${p.closeCode})`}`;
  });
  await check('handshake', 'an action before the handshake is refused', async () => {
    const p = await raw();
    p.send({ type: 'action', action_id: 'early', action: 'list_tabs', params: {} });
    const err = await p.next(isType('error'), 2000);
    const result = p.received.find(isType('action_result'));
    if (result?.status === 'success') return 'the bridge ran an action before authentication';
    return err || p.closeCode !== null ? true : 'no refusal';
  });
  await check('handshake', 'a WebSocket with an Origin header (a web page) is refused on /agent', async () => {
    const p = await raw({ origin: 'http://evil.example' });
    return p.httpStatus === 403 ? true : `got HTTP ${p.httpStatus ?? 101 /* upgraded */}`;
  });

  // --- a session for the rest ---------------------------------------------------------------
  const server = await new ConformancePageServer().start();
  let client: AgentClient | null = null;
  const seen: ProtocolMessage[] = [];
  try {
    client = await AgentClient.connect({ url: o.against, secret: o.secret, clientName: 'browser-use-ext-conformance', reconnect: false });
    const c = client;
    let invalidFromBridge = 0;
    // Only frames the client could not decode count; error messages the bridge sends on purpose do not.
    c.on('protocol-error', (info: { component_origin?: string }) => {
      if (info.component_origin === 'client') invalidFromBridge++;
    });
    for (const ev of ['state_update', 'tab_released', 'extension_status']) c.on(ev, (m: ProtocolMessage) => seen.push(m));
    const opened = await c.call('open_tab', { url: server.url + '/' });
    const tabId = (opened.outcome_details?.result as { tab_id?: number } | undefined)?.tab_id;
    if (opened.status !== 'success' || tabId === undefined) {
      add({
        section: 'action',
        name: 'open_tab (the conformance page)',
        outcome: 'fail',
        detail: opened.error_info ? `${opened.error_info.error_code}: ${opened.error_info.message}` : 'no tab_id',
      });
      return results;
    }
    const on = { tabId };
    const reset = () => c.call('navigate', { url: server.url + '/' }, on);

    // --- every action -------------------------------------------------------------------------
    const plan: { [A in ActionName]?: ActionParams<A> } = {
      get_state: {},
      click: { selector: '#inc' },
      double_click: { selector: '#dbl' },
      hover: { selector: '#inc' },
      focus: { selector: '#name' },
      fill: { selector: '#name', value: 'Grace' },
      type: { selector: '#name', text: '!' },
      clear: { selector: '#name' },
      press: { key: 'Tab' },
      send_keys: { keys: 'Escape' },
      check: { selector: '#agree' },
      uncheck: { selector: '#agree' },
      select_option: { selector: '#size', values: ['l'] },
      get_dropdown_options: { selector: '#size' },
      set_input_files: { selector: '#attachment', files: [{ name: 'a.txt', mime_type: 'text/plain', content_base64: 'aGk=' }] },
      drag_and_drop: { selector: '#drag', to: { selector: '#drop' } },
      scroll: { direction: 'down' },
      scroll_to: { y: 100 },
      scroll_into_view: { selector: '#far' },
      scroll_to_text: { text: 'Far text' },
      get: { what: 'title' },
      is: { what: 'visible', selector: '#inc' },
      extract_content: {},
      wait_for: { text: 'Counter' },
      wait: { ms: 10 },
      wait_for_network_idle: { timeout_ms: 3000 },
      evaluate: { expression: '1 + 1' },
      screenshot: {},
      list_tabs: {},
      get_cookies: {},
      list_tools: {},
      open_tool: { name: 'browser-use-ext conformance: no such tool' },
      navigate: { url: server.url + '/page2' },
      go_back: {},
      go_forward: {},
      reload: {},
      wait_for_navigation: { timeout_ms: 500 },
      search: { query: 'browser-use-ext conformance' },
    };
    const runOne = async (name: ActionName, params: unknown, opts: { tabId?: number } = on): Promise<string | true> => {
      const r: ActionResultMessage = await c.call(name, params as never, opts);
      const msgOk = checkMessage(r, 'client');
      if (!msgOk.ok) return `action_result invalid: ${msgOk.error.message}`;
      if (r.status === 'success') {
        const res = r.outcome_details?.result ?? {};
        const v = ACTION_VALIDATORS[name].result;
        return v(res) ? true : `result does not match ${name}.json#/properties/result: ${JSON.stringify(v.errors?.[0])}`;
      }
      const code = r.error_info?.error_code;
      if (code && ACCEPTED_ERRORS[name]?.includes(code)) return true;
      return `status error ${code}: ${r.error_info?.message ?? ''}`;
    };
    for (const name of ACTION_NAMES) {
      if (name === 'open_tab' || name === 'switch_tab' || name === 'close_tab') continue;
      if (name === 'cdp_attach' || name === 'cdp_detach') continue; // one sequence below
      const params = plan[name];
      // History actions need history: a page to go back from (and then forward to).
      if (name === 'go_back') await c.call('navigate', { url: server.url + '/page2' }, on);
      if (params === undefined) {
        add({ section: 'action', name, outcome: 'skip', detail: 'the kit has no plan for this action (new in the schema?)' });
        continue;
      }
      await check('action', name, () => runOne(name, params));
      if (name === 'navigate' || name === 'search' || name === 'go_forward' || name === 'reload') await reset();
    }
    add({ section: 'action', name: 'open_tab', outcome: 'pass', detail: `tab ${tabId}` });
    await check('action', 'open_tab (background) + switch_tab + close_tab', async () => {
      const r = await c.call('open_tab', { url: server.url + '/page2', active: false });
      const second = (r.outcome_details?.result as { tab_id?: number } | undefined)?.tab_id;
      if (second === undefined) return `open_tab failed: ${r.error_info?.message}`;
      const sw = await runOne('switch_tab', { tab_id: second }, { tabId: second });
      if (sw !== true) return `switch_tab: ${sw}`;
      return runOne('close_tab', { tab_id: second }, { tabId: second });
    });

    // The DevTools relay only works in order: attach, a command (cdp_command, answered by cdp_result), detach.
    await check('action', 'cdp_attach + cdp_command + cdp_detach', async () => {
      const attached = await runOne('cdp_attach', {});
      if (attached !== true) return `cdp_attach: ${attached}`;
      const sent = await c.cdp({ tabId, method: 'Runtime.evaluate', params: { expression: '1 + 1', returnByValue: true } });
      const valid = checkMessage(sent, 'client');
      if (!valid.ok) return `cdp_result invalid: ${valid.error.message}`;
      const value = (sent.result?.['result'] as { value?: unknown } | undefined)?.value;
      if (value !== 2) return `cdp_command Runtime.evaluate 1 + 1 answered ${JSON.stringify(sent.error_info ?? sent.result)}`;
      return runOne('cdp_detach', {});
    });

    // --- error codes --------------------------------------------------------------------------
    await reset();
    const expectCode = async (code: ErrorCode, name: ActionName, params: unknown, opts: { tabId?: number; timeoutMs?: number } = on) => {
      await check('error_code', code, async () => {
        const r = await c.call(name, params as never, opts);
        if (r.error_info?.error_code !== code)
          return `${name} ${JSON.stringify(params)} answered ${r.status} ${r.error_info?.error_code ?? ''}`;
        return r.error_info.message.length > 0 ? true : 'no message saying what to do next';
      });
    };
    await expectCode('TARGET_ELEMENT_NOT_FOUND', 'click', { element_id: 'e987654' });
    await expectCode('AMBIGUOUS_TARGET', 'click', { role: 'button', name: 'Twin', exact: true });
    await expectCode('TARGET_ELEMENT_NOT_INTERACTABLE', 'click', { selector: '#off', timeout_ms: 300 });
    await expectCode('OPTION_NOT_FOUND', 'select_option', { selector: '#size', values: ['no-such-option'] });
    await expectCode('TIMEOUT', 'wait_for', { text: 'text that never appears', timeout_ms: 300 });
    await expectCode('TAB_NOT_FOUND', 'get_state', {}, { tabId: 2_000_000_000 });
    await expectCode('NAVIGATION_FAILED', 'navigate', { url: 'http://127.0.0.1:1/' });
    await reset();
    await check('error_code', 'INVALID_MESSAGE (schema checks agent -> bridge: bad params answered with instance_path)', async () => {
      const p = new Promise<ProtocolMessage>((resolve) => {
        c.once('protocol-error', (info: { error_code: string; details?: { instance_path?: string } }) =>
          resolve({ type: 'error', error_info: info } as unknown as ProtocolMessage),
        );
        setTimeout(() => resolve({ type: 'pong', sent_at: 0 } as ProtocolMessage), 5000);
      });
      c.sendUnchecked(JSON.stringify({ type: 'action', action_id: 'bad-1', action: 'click', params: { selector: 42 } }));
      const got = await p;
      if (got.type !== 'error') return 'no error for an action with a number as selector';
      return got.error_info.error_code === 'INVALID_MESSAGE' && typeof got.error_info.details?.['instance_path'] === 'string'
        ? true
        : `got ${got.error_info.error_code}`;
    });
    await check('schema', 'every message from the bridge matched its schema (bridge -> agent)', async () =>
      invalidFromBridge === 0 ? true : `${invalidFromBridge} invalid message(s)`,
    );
    await check('schema', 'every message the kit sent was checked against its schema before sending (agent -> bridge)', async () => true);
    const rawInvalid = peers.flatMap((p) => p.invalid);
    await check('schema', 'handshake messages matched their schemas', async () => (rawInvalid.length === 0 ? true : rawInvalid.join('; ')));
    await c.call('close_tab', { tab_id: tabId }, on);
  } catch (e) {
    add({ section: 'action', name: 'session', outcome: 'fail', detail: e instanceof Error ? e.message : String(e) });
  } finally {
    for (const p of peers) p.close();
    await client?.close();
    await server.close();
  }
  return results;
}

export function formatReport(results: readonly CheckResult[]): string {
  const lines = ['browser-use-ext conformance report', ''];
  for (const section of ['handshake', 'schema', 'action', 'error_code'] as const) {
    const rs = results.filter((r) => r.section === section);
    if (!rs.length) continue;
    lines.push(`${section} (${rs.filter((r) => r.outcome === 'pass').length}/${rs.length} pass)`);
    for (const r of rs)
      lines.push(
        `  ${r.outcome === 'pass' ? 'PASS' : r.outcome === 'skip' ? 'SKIP' : 'FAIL'}  ${r.name}${r.detail ? `  -- ${r.detail}` : ''}`,
      );
    lines.push('');
  }
  const fails = results.filter((r) => r.outcome === 'fail').length;
  lines.push(
    `${results.length} checks: ${results.filter((r) => r.outcome === 'pass').length} pass, ${fails} fail, ${results.filter((r) => r.outcome === 'skip').length} skip`,
  );
  return lines.join('\n');
}
