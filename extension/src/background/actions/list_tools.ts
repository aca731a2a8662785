// The person's saved tools, for seed 002's AVAILABLE TOOLS prompt section.
import { readSavedTools } from './saved-tools';
import type { WorkerOutcome } from './types';

export async function listTools(): Promise<WorkerOutcome> {
  const tools = await readSavedTools();
  return { ok: true, message: `${tools.length} saved tool${tools.length === 1 ? '' : 's'}.`, result: { tools }, stateTabId: null };
}
