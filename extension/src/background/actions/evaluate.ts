// evaluate runs arbitrary script in the person's page, so it is off unless the person turned it on:
// chrome.storage.local `allow_evaluate` = true (Settings: "Let agents run their own scripts in pages").
import type { EvaluateParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { OPEN_SETTINGS, SETTINGS_LABELS } from '../../shared/settings-labels';
import { noteClientScript } from '../cdp/client-script-marks';
import { isRestrictedUrl } from '../policy/tabs';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

export const ALLOW_EVALUATE_KEY = 'allow_evaluate';

type EvalOutcome = { ok: true; value_json: string; value_type: string } | { ok: false; error: string };

/** Runs in the page's main world (serialised by chrome.scripting: must not close over anything). */
async function evaluateInPage(expression: string): Promise<EvalOutcome> {
  try {
    // Indirect eval: global scope, as if typed in the DevTools console.
    let value: unknown = (0, eval)(expression);
    if (value && typeof (value as { then?: unknown }).then === 'function') value = await (value as Promise<unknown>);
    const value_type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      json = undefined;
    }
    return { ok: true, value_json: json ?? 'undefined', value_type };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

export async function evaluate(ctx: WorkerContext, params: EvaluateParams): Promise<WorkerOutcome> {
  const stored = await chrome.storage.local.get(ALLOW_EVALUATE_KEY);
  if (stored[ALLOW_EVALUATE_KEY] !== true) {
    return {
      ok: false,
      error: errorInfo(
        'NOT_PERMITTED',
        `evaluate is off: running your own scripts in the person's pages needs their consent. They turn on "${SETTINGS_LABELS.allowEvaluate}" in ${OPEN_SETTINGS}; or use the element actions instead.`,
        WS,
        { setting: ALLOW_EVALUATE_KEY },
      ),
    };
  }
  if (isRestrictedUrl(ctx.tab.url)) {
    return {
      ok: false,
      error: errorInfo(
        'RESTRICTED_PAGE',
        `Tab ${ctx.tab.id} shows ${ctx.tab.url}, where Chrome does not let extensions run script. Navigate it to a web page first.`,
        WS,
        { tab_id: ctx.tab.id, current_url: ctx.tab.url },
      ),
      stateTabId: null,
    };
  }
  let results: chrome.scripting.InjectionResult<Awaited<EvalOutcome>>[];
  try {
    results = await chrome.scripting.executeScript({
      target: { tabId: ctx.tab.id, frameIds: [0] },
      world: 'MAIN',
      func: evaluateInPage,
      args: [params.expression],
    });
  } catch (e) {
    return {
      ok: false,
      error: errorInfo(
        'COMMUNICATION_ERROR_WITH_TARGET',
        `Could not run script in tab ${ctx.tab.id}: ${e instanceof Error ? e.message : String(e)}. Wait for the page to load and retry.`,
        WS,
        { tab_id: ctx.tab.id },
      ),
    };
  }
  // Ran, even if it threw after adding a listener: the tab is reloaded (or the person warned) when the agent ends.
  noteClientScript(ctx.tab.id);
  const out = results[0]?.result;
  if (!out)
    return {
      ok: false,
      error: errorInfo(
        'OPERATION_FAILED_IN_TARGET',
        'The page returned no result (it may have navigated or blocked script). Take a new state and retry.',
        WS,
        { tab_id: ctx.tab.id },
      ),
    };
  if (!out.ok)
    return {
      ok: false,
      error: errorInfo('OPERATION_FAILED_IN_TARGET', `The expression threw ${out.error}. Fix the expression and retry.`, WS, {
        tab_id: ctx.tab.id,
        exception: out.error,
      }),
    };
  return { ok: true, message: `Evaluated: ${out.value_type}.`, result: { value_json: out.value_json, value_type: out.value_type } };
}
