// Helpers for the page-side action specs: one harness per file, a page per test, and short ways to
// call an action and assert its success or its typed error.
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';

import type { AgentClient } from '../../bridge/client/agent-client';
import type { ActionResultMessage, ErrorCode, SimplifiedState } from '../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../schemas/generated/registry';
import type { Harness } from '../harness/harness';

let pageCounter = 0;

export interface Opened {
  page: Page;
  agent: AgentClient;
  tabId: number;
  state: SimplifiedState;
  /** Calls an action on this page's tab. */
  call<A extends ActionName>(action: A, params: ActionParams<A>): Promise<ActionResultMessage>;
  /** Calls and asserts success; returns outcome_details.result. */
  ok<A extends ActionName>(action: A, params: ActionParams<A>): Promise<Record<string, unknown>>;
  /** Calls and asserts the error code; returns the error_info. */
  fails<A extends ActionName>(action: A, params: ActionParams<A>, code: ErrorCode): Promise<NonNullable<ActionResultMessage['error_info']>>;
  /** element_id of the listed element with DOM id domId, from a fresh state. */
  id(domId: string): Promise<string>;
  eval<T>(fn: string): Promise<T>;
}

export async function open(h: Harness, body: string, title = 'Actions fixture'): Promise<Opened> {
  const url = h.fixtures.html(`/actions-${++pageCounter}`, body, title);
  const page = await h.openPage(url);
  const agent = await h.connectAgent();
  const first = await agent.call('get_state', {});
  expect(first.status, JSON.stringify(first.error_info)).to.equal('success');
  const tabId = first.tab_id as number;
  const o: Opened = {
    page,
    agent,
    tabId,
    state: first.new_simplified_state as SimplifiedState,
    call: (action, params) => agent.call(action, params, { tabId }),
    async ok(action, params) {
      const r = await o.call(action, params);
      expect(r.status, `${action} ${JSON.stringify(params)}: ${JSON.stringify(r.error_info)}`).to.equal('success');
      return (r.outcome_details?.result ?? {}) as Record<string, unknown>;
    },
    async fails(action, params, code) {
      const r = await o.call(action, params);
      expect(r.status, `${action} should fail with ${code}`).to.equal('error');
      expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal(code);
      return r.error_info!;
    },
    async id(domId) {
      const r = await o.call('get_state', {});
      const s = r.new_simplified_state as SimplifiedState;
      const el = s.actionable_elements.find((e) => e.attributes['id'] === domId);
      expect(el, `#${domId} listed in the state`).to.not.equal(undefined);
      return el!.id;
    },
    eval: <T>(fn: string) => page.evaluate(fn) as Promise<T>,
  };
  return o;
}

/** A page's record of the events it receives: the script that records them and the code that reads them back. */
export interface EventLog<T = string> {
  /** The <script> to put in a fixture's body (after the elements it listens on). */
  readonly script: string;
  /** Every entry recorded so far. */
  read(o: Pick<Opened, 'eval'>): Promise<T[]>;
  /** Every entry recorded so far, emptying the record: the next read starts after them. */
  take(o: Pick<Opened, 'eval'>): Promise<T[]>;
}

export interface EventLogOptions {
  /** The window property that holds the entries; a page with two logs gives each its own. */
  name: string;
  types: readonly string[];
  /** One entry: a JavaScript expression of the event `e`, its type `t` and (with `on`) the element's `id`. Default "type:target". */
  entry?: string;
  /**
   * Ids of the elements to listen on (each its own listener, as a page's handler would be). Default:
   * the document, in the capture phase, so a page that stops an event's propagation hides nothing.
   */
  on?: readonly string[];
}

/** "type:target", the target named by its id, else its tag name. */
const TYPE_AND_TARGET = "t + ':' + ((e.target && e.target.id) || (e.target && e.target.localName) || '?')";

/** Builds an event log: the fixture script that records events into window[name], and its reader. */
export function eventLog<T = string>({ name, types, entry = TYPE_AND_TARGET, on }: EventLogOptions): EventLog<T> {
  const log = `window.${name}`;
  const listen = on
    ? `for (const id of ${JSON.stringify(on)}) for (const t of ${JSON.stringify(types)})
    document.getElementById(id).addEventListener(t, (e) => ${log}.push(${entry}));`
    : `for (const t of ${JSON.stringify(types)})
    document.addEventListener(t, (e) => ${log}.push(${entry}), true);`;
  return {
    script: `<script>
  ${log} = [];
  ${listen}
</script>`,
    read: (o) => o.eval<T[]>(log),
    take: (o) => o.eval<T[]>(`${log}.splice(0)`),
  };
}

/** Every pointer, mouse, focus, key, input, form and drag event, as "type:target". */
export const EVENT_LOG = eventLog({
  name: 'log',
  types: [
    'pointerover',
    'pointerenter',
    'mouseover',
    'mouseenter',
    'pointermove',
    'mousemove',
    'pointerdown',
    'mousedown',
    'focus',
    'pointerup',
    'mouseup',
    'click',
    'dblclick',
    'contextmenu',
    'auxclick',
    'keydown',
    'keypress',
    'beforeinput',
    'input',
    'keyup',
    'change',
    'submit',
    'dragstart',
    'dragenter',
    'dragover',
    'drop',
    'dragend',
  ],
});

/**
 * Turns off the worker's "no change within 15 s" watch for these specs: many of their actions
 * (reads, clicks on handlers that only set a variable) change nothing in the DOM by design.
 * Written to chrome.storage.local from the service worker, as the options page would.
 */
export async function quietSettle(h: Harness): Promise<void> {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
    timeout: 10_000,
  });
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  await w.evaluate(() =>
    (globalThis as unknown as { chrome: { storage: { local: { set(o: object): Promise<void> } } } }).chrome.storage.local.set({
      settle_options: { no_change_timeout_ms: 0 },
    }),
  );
}
