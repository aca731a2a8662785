import type { WaitParams } from '../../../../schemas/generated/protocol';
import { sleep } from '../page-watch/budget';
import type { WorkerContext, WorkerOutcome } from './types';

export async function wait(ctx: WorkerContext, params: WaitParams): Promise<WorkerOutcome> {
  const ms = ctx.budget.cap(params.ms);
  await sleep(ms);
  return {
    ok: true,
    message:
      ms < params.ms
        ? `Waited ${ms} ms (cut from ${params.ms} ms by the action's timeout_ms; raise timeout_ms to wait longer).`
        : `Waited ${ms} ms.`,
    result: { waited_ms: ms },
  };
}
