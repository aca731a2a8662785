// What a page-side action handler receives and returns: its own module, so handlers and the
// helpers they share import these types without importing the registry that imports them.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import type { RefRegistry } from '../refs';

export interface PageContext {
  refs: RefRegistry;
  /** Typing actions report how many characters went in (see InputProgress); absent off the worker's port. */
  progress?: (done: number, total: number) => void;
}

/**
 * Expected failures are values (STYLE habit 7); only broken contracts throw.
 * settle: whether the action may have changed the page, so the worker should wait for it to settle
 * (false for reads and no-ops).
 */
export type HandlerOutcome =
  { ok: true; message: string; result: Record<string, unknown>; settle?: boolean; link?: true } | { ok: false; error: ErrorInfo };

export type PageHandler = (ctx: PageContext, params: unknown) => HandlerOutcome | Promise<HandlerOutcome>;
