// Keys sent to "the focused element" (press without a target, send_keys) when the person has moved
// the keyboard focus onto our own controlled-tab bar (Tab reaches its Stop button): a real Enter or
// Space would press Stop, and synthetic key events would reach the page with our host as their
// target. Neither is the page's input the agent asked for, so the keys are not sent and the answer
// says where the focus is and what to do.
import { isAgentUi } from '../../shared/agent-ui-marker';
import { fail } from './common';
import type { HandlerOutcome } from './types';

/** A typed refusal when this document's keyboard focus is in our UI, else null. */
export function keysWouldReachAgentUi(): HandlerOutcome | null {
  const focused = document.activeElement;
  if (!focused || !isAgentUi(focused)) return null;
  return fail(
    'OPERATION_FAILED_IN_TARGET',
    "The keyboard focus is on this extension's Stop button (the person moved it there), so the keys were not sent: they would press Stop. Click or focus the page element the keys are for (or name it as the press target), then retry.",
    { reason: 'focus_on_agent_ui' },
  );
}
