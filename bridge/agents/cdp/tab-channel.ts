// The relay's one road to a tab: every CDP command it sends to a tab (a client's, or one of its own
// such as the title or cookie reads) goes through sendToTab, and the endpoint's own actions
// (cdp_attach, open_tab, ...) through act. So the message that carries a command to the extension is
// chosen here and nowhere else.
// The hot path is one message per command, answered from a .then on the call itself: an event that
// arrives right after an answer is queued (queueMicrotask) behind that .then, so answers and events
// reach the client in the order Chrome sent them. Any added hop (an await, a second .then) would let
// the event overtake the answer, so sendToTab takes a callback instead of returning a promise.
import type { ActionResultMessage, ErrorInfo } from '../../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../../schemas/generated/registry';
import type { AgentClient, CallOptions, CdpCommand } from '../../client/agent-client';
import { resultText } from '../../client/result-text';
import { cdpTraceMark } from '../../common/cdp-trace';
import { type CdpError, isObject, objectOf, type Params, SERVER_ERROR } from './cdp-protocol';

export interface TabCommand {
  tabId: number;
  /** Chrome's child session inside the tab (a frame or worker); undefined: the tab itself. */
  sessionId: string | undefined;
  method: string;
  params: Params;
  timeoutMs: number;
}

/**
 * What a tab answered; result undefined: the extension said success but sent no result. json: the
 * result's text as Chrome's answer carried it (client/result-text.ts), for a reply that passes it on
 * unchanged (CdpWriter.replyJson); whoever changes `result` before replying must not use it.
 */
export type TabAnswer = { ok: true; result: Params | undefined; json?: string } | { ok: false; error: CdpError };
export type SendOutcome = { ok: true; result: Params } | { ok: false; error: CdpError };

/** A relay command the client sends: the bridge caps it here, the client's own timeouts apply first. */
export const CDP_CALL_TIMEOUT_MS = 600_000;
/** The relay's own commands (title, version, cookies, window) and its actions. */
export const OWN_CALL_TIMEOUT_MS = 15_000;

/** Chrome's own error when the extension relayed one, else the bridge's message as a server error. */
export function cdpErrorOf(info: ErrorInfo | null | undefined): CdpError {
  if (!info) return { code: SERVER_ERROR, message: 'The browser answered with an error but gave no details.' };
  const cdp = info.details?.['cdp_error'];
  const e = objectOf<CdpError>(cdp);
  if (info.error_code === 'CDP_ERROR' && isObject(cdp) && typeof e.code === 'number' && typeof e.message === 'string')
    return cdp as unknown as CdpError;
  return { code: SERVER_ERROR, message: info.message };
}

/** An answer that came as text: parsed only if a reader asks for `result` (the hot path passes `json` on). */
function textAnswer(json: string): TabAnswer {
  let parsed: Params | undefined;
  return {
    ok: true,
    json,
    get result(): Params {
      parsed ??= JSON.parse(json) as Params;
      return parsed;
    },
  };
}

export class TabChannel {
  constructor(
    private readonly agent: AgentClient,
    /** A rejected call as the client sees it (the person's Stop ends the session there). */
    private readonly rejection: (e: unknown) => CdpError,
  ) {}

  /** The one function that sends a CDP command to a tab; `done` runs from the call's own .then. */
  sendToTab(cmd: TabCommand, done: (answer: TabAnswer) => void): void {
    const command: CdpCommand = { tabId: cmd.tabId, method: cmd.method, params: cmd.params, timeoutMs: cmd.timeoutMs };
    if (cmd.sessionId !== undefined) command.sessionId = cmd.sessionId;
    cdpTraceMark('b_emu_send');
    this.agent.cdpText(command).then(
      (r) => {
        cdpTraceMark('b_emu_answer');
        if ('json' in r) return done(textAnswer(r.json));
        if (!r.result) return done({ ok: false, error: cdpErrorOf(r.error_info) });
        const json = resultText(r);
        done(json === null ? { ok: true, result: r.result } : { ok: true, result: r.result, json });
      },
      (e: unknown) => done({ ok: false, error: this.rejection(e) }),
    );
  }

  /** The relay's own command to a tab (not on the hot path): a missing result reads as {}. */
  request(tabId: number, method: string, params: Params, sessionId?: string): Promise<SendOutcome> {
    return new Promise((resolve) =>
      this.sendToTab({ tabId, sessionId, method, params, timeoutMs: OWN_CALL_TIMEOUT_MS }, (a) =>
        resolve(a.ok ? { ok: true, result: a.result ?? {} } : a),
      ),
    );
  }

  /** An action of the endpoint itself (not a client's command): its result, or a CDP error. */
  async act<A extends ActionName>(action: A, params: ActionParams<A>, options: CallOptions): Promise<SendOutcome> {
    let r: ActionResultMessage;
    try {
      r = await this.agent.call(action, params, options);
    } catch (e) {
      return { ok: false, error: this.rejection(e) };
    }
    if (r.status !== 'success') return { ok: false, error: cdpErrorOf(r.error_info) };
    const result = r.outcome_details?.result;
    return { ok: true, result: isObject(result) ? result : {} };
  }
}
