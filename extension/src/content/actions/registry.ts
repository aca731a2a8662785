// Page-side action handlers, one module per action, registered by name. The content script's
// entry dispatches through this table; an action missing here is UNSUPPORTED_ACTION.
// Handler contract: (ctx, params) => HandlerOutcome. params arrive validated against the action's
// params schema, with element ids already local to this frame (the worker routes "f7e3" to frame 7
// as "e3", and translates index to element_id; see background/run/route.ts).
import type { ActionName } from '../../../../schemas/generated/registry';
import { check, uncheck } from './check';
import { click, doubleClick } from './click';
import { dragAndDrop } from './drag';
import { getDropdownOptions, selectOption } from './dropdown';
import { extractContent } from './extract';
import { clear, fill } from './fill';
import { focus } from './focus';
import { hover } from './hover';
import { press, sendKeys } from './press';
import { get, is } from './read';
import { scroll, scrollIntoView, scrollTo, scrollToText } from './scroll';
import { setInputFiles } from './set-input-files';
import { type } from './type';
import type { PageHandler } from './types';
import { waitFor } from './wait-for';

export type { HandlerOutcome, PageContext, PageHandler } from './types';

export const PAGE_HANDLERS: Partial<Record<ActionName, PageHandler>> = {
  click,
  double_click: doubleClick,
  hover,
  focus,
  drag_and_drop: dragAndDrop,
  fill,
  type,
  clear,
  press,
  send_keys: sendKeys,
  check,
  uncheck,
  select_option: selectOption,
  set_input_files: setInputFiles,
  get_dropdown_options: getDropdownOptions,
  scroll,
  scroll_to: scrollTo,
  scroll_into_view: scrollIntoView,
  scroll_to_text: scrollToText,
  get,
  is,
  extract_content: extractContent,
  wait_for: waitFor,
};
