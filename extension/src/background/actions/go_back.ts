import type { GoBackParams } from '../../../../schemas/generated/protocol';
import { historyStep } from './history-step';
import type { WorkerContext, WorkerOutcome } from './types';

export function goBack(ctx: WorkerContext, params: GoBackParams): Promise<WorkerOutcome> {
  return historyStep(ctx, -1, params.timeout_ms);
}
