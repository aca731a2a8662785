// Helpers for the worker-actions e2e specs: extension settings set the way the options page sets
// them (chrome.storage.local, from the service worker), and lookups of elements in a state.
import { expect } from 'chai';

import type { ActionResultMessage, SimplifiedState } from '../../schemas/generated/protocol';
import type { Harness } from '../harness/harness';

type StorageArea = { set(o: Record<string, unknown>): Promise<void>; remove(k: string[]): Promise<void> };
type ChromeGlobal = {
  chrome: {
    storage: { local: StorageArea };
    debugger: { attach(t: { tabId: number }, v: string): Promise<void>; detach(t: { tabId: number }): Promise<void> };
  };
};

export async function worker(h: Harness) {
  const target = await h.launched.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'), {
    timeout: 10_000,
  });
  const w = await target.worker();
  if (!w) throw new Error('no extension service worker');
  return w;
}

/** Writes extension settings (chrome.storage.local), e.g. { settle_options: {...}, allow_evaluate: true }. */
export async function setSettings(h: Harness, values: Record<string, unknown>): Promise<void> {
  const w = await worker(h);
  await w.evaluate((v) => (globalThis as unknown as ChromeGlobal).chrome.storage.local.set(v), values);
}

export async function clearSettings(h: Harness, keys: string[]): Promise<void> {
  const w = await worker(h);
  await w.evaluate((k) => (globalThis as unknown as ChromeGlobal).chrome.storage.local.remove(k), keys);
}

/**
 * Whether the extension's own chrome.debugger session is still attached to the tab: attaching again
 * fails exactly then (getTargets().attached cannot tell, puppeteer's CDP session counts too).
 */
export async function debuggerAttached(h: Harness, tabId: number): Promise<boolean> {
  const w = await worker(h);
  return w.evaluate(async (id) => {
    const dbg = (globalThis as unknown as ChromeGlobal).chrome.debugger;
    try {
      await dbg.attach({ tabId: id }, '1.3');
    } catch {
      return true;
    }
    await dbg.detach({ tabId: id });
    return false;
  }, tabId);
}

export function stateOf(r: ActionResultMessage): SimplifiedState {
  expect(r.new_simplified_state, JSON.stringify(r.error_info)).to.be.an('object');
  return r.new_simplified_state as SimplifiedState;
}

/** element_id of the listed element whose attribute `id` is domId. */
export function idOf(state: SimplifiedState, domId: string): string {
  const el = state.actionable_elements.find((e) => e.attributes['id'] === domId);
  expect(el, `element #${domId} in the state`).to.not.equal(undefined);
  return el!.id;
}

export function ok(r: ActionResultMessage): NonNullable<ActionResultMessage['outcome_details']> {
  expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
  return r.outcome_details!;
}
