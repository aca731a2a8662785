import type { WaitForNetworkIdleParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { SETTLE_CHANNEL } from '../../shared/settle-messages';
import { settleSend } from '../settle-rule';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

export async function waitForNetworkIdle(ctx: WorkerContext, params: WaitForNetworkIdleParams): Promise<WorkerOutcome> {
  const cap = ctx.budget.cap(params.timeout_ms ?? ctx.settle.network_cap_ms);
  const idleMs = params.idle_ms ?? 500;
  const r = await settleSend(ctx.tab.id, 0, { channel: SETTLE_CHANNEL, kind: 'network_idle', idle_ms: idleMs, timeout_ms: cap }, cap + 500);
  if (!r)
    return {
      ok: false,
      error: errorInfo(
        'COMMUNICATION_ERROR_WITH_TARGET',
        'The page did not answer (it may be navigating or be a page extensions cannot script). Take a new state and retry.',
        WS,
        { tab_id: ctx.tab.id },
      ),
    };
  if (!r.idle) {
    return {
      ok: false,
      error: errorInfo(
        'TIMEOUT',
        `The network did not stay idle for ${idleMs} ms within ${cap} ms; ${r.pending.length} request(s) still in flight. Take a new state or raise timeout_ms.`,
        WS,
        { tab_id: ctx.tab.id, timeout_ms: cap, pending: r.pending.slice(0, 10) },
      ),
    };
  }
  return { ok: true, message: `Network idle after ${r.waited_ms} ms.`, result: { waited_ms: r.waited_ms } };
}
