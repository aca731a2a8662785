// Page-side action handlers, one module per action, registered by name. The content script's
// entry dispatches through this table; an action missing here is UNSUPPORTED_ACTION.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import type { ActionName } from '../../../../schemas/generated/registry';
import type { RefRegistry } from '../refs';
import { click } from './click';

export interface PageContext {
  refs: RefRegistry;
}

/** Expected failures are values (STYLE habit 7); only broken contracts throw. */
export type HandlerOutcome =
  | { ok: true; message: string; result: Record<string, unknown>; settle?: boolean }
  | { ok: false; error: ErrorInfo };

export type PageHandler = (ctx: PageContext, params: unknown) => HandlerOutcome | Promise<HandlerOutcome>;

export const PAGE_HANDLERS: Partial<Record<ActionName, PageHandler>> = {
  click: (ctx, params) => {
    const out = click(ctx.refs, (params as { element_id: string }).element_id);
    return out.ok ? { ok: true, message: out.message, result: out.value, settle: true } : out;
  },
};
