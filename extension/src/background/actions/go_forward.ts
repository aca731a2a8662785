import type { GoForwardParams } from '../../../../schemas/generated/protocol';
import { historyStep } from './history-step';
import type { WorkerContext, WorkerOutcome } from './types';

export function goForward(ctx: WorkerContext, params: GoForwardParams): Promise<WorkerOutcome> {
  return historyStep(ctx, 1, params.timeout_ms);
}
