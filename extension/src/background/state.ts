// Assembles the simplified_state of a tab. For now: the top frame's snapshot. (Issue 3 replaces the
// internals with every frame stitched under its iframe element; callers keep this signature.)
import type { GetStateParams, SimplifiedState } from '../../../schemas/generated/protocol';
import { CONTENT_CHANNEL } from '../shared/internal-messages';
import { sendToContent } from './content-channel';

export type StateOutcome = { ok: true; state: SimplifiedState } | { ok: false; error: import('../../../schemas/generated/protocol').ErrorInfo };

export async function collectState(tabId: number, params: GetStateParams = {}): Promise<StateOutcome> {
  const sent = await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'snapshot', params });
  if (!sent.ok) return { ok: false, error: sent.error };
  const r = sent.response;
  if (!r.ok) return { ok: false, error: r.error };
  if (!r.state) throw new Error('snapshot answer without state');
  return { ok: true, state: { ...r.state, tab_id: tabId } };
}
