// press (Playwright key syntax, optionally on a target that is focused first) and browser_use's
// send_keys (the focused element; an unknown key name is typed character by character, as
// browser_use does when Playwright answers "Unknown key").
import type { PressParams, SendKeysParams } from '../../../../schemas/generated/protocol';
import { parseChord } from '../../shared/keys';
import { composedContains, deepActiveElement } from '../interaction/dom';
import { focusedDescription, pressChord, typeText } from '../interaction/keyboard';
import { hasTarget } from '../target';
import { fail, label, ok, prepare } from './common';
import { keysWouldReachAgentUi } from './focus-guard';
import type { PageHandler } from './types';

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform);

export const press: PageHandler = async (ctx, raw) => {
  const p = raw as PressParams;
  const parsed = parseChord(p.key, isMac());
  if (!parsed.ok)
    return fail(
      'UNKNOWN_KEY',
      `${parsed.reason.replace(/\.$/, '')}. Use Playwright key names (US keyboard layout) such as Enter, Tab, ArrowDown, Escape, Backspace, ControlRight, NumpadSubtract, F5, a single character, or chords like Control+A and Shift+Tab.`,
      { key: p.key, ...(parsed.unknownKey !== undefined ? { unknown: parsed.unknownKey } : {}) },
    );
  let where = 'the focused element';
  if (hasTarget(p)) {
    const r = await prepare(ctx, p, []);
    if (!r.ok) return r;
    if (!composedContains(r.el, deepActiveElement())) (r.el as HTMLElement).focus?.({ preventScroll: true });
    where = label(r.id, r.el);
  } else {
    const refused = keysWouldReachAgentUi();
    if (refused) return refused;
  }
  await pressChord(parsed.chord);
  ctx.progress?.(1, 1);
  return ok(`Pressed ${p.key} on ${where}; focus is now on ${focusedDescription()}.`, {
    keys: [p.key],
    focused_element: focusedDescription(),
  });
};

export const sendKeys: PageHandler = async (ctx, raw) => {
  const p = raw as SendKeysParams;
  const refused = keysWouldReachAgentUi();
  if (refused) return refused;
  const parsed = parseChord(p.keys, isMac());
  if (parsed.ok) {
    await pressChord(parsed.chord);
    ctx.progress?.(1, 1);
    return ok(`Sent keys: ${p.keys}`, { keys: [p.keys], focused_element: focusedDescription() });
  }
  // browser_use: on "Unknown key" it presses each character.
  await typeText(p.keys);
  const n = [...p.keys].length;
  ctx.progress?.(n, n);
  return ok(`Sent keys: ${p.keys}`, { keys: [...p.keys], focused_element: focusedDescription() });
};
