// Trusted input through chrome.debugger (Input.dispatchMouseEvent / Input.dispatchKeyEvent): events
// with isTrusted = true, for sites that ignore synthetic ones. The debugger is attached only for the
// one action and detached right after, so Chrome's "is debugging this browser" bar does not linger.
import type { PrepareRequest } from '../shared/internal-messages';
import type { TrustedInputRequest } from '../shared/trusted-input';

type Debuggee = chrome.debugger.Debuggee;
const PROTOCOL = '1.3';

const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
/** key -> [code, windowsVirtualKeyCode, text]; printable single characters are derived. */
const NAMED_KEYS: Record<string, [string, number, string?]> = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9], Backspace: ['Backspace', 8], Delete: ['Delete', 46], Escape: ['Escape', 27], ' ': ['Space', 32, ' '], Space: ['Space', 32, ' '],
  ArrowUp: ['ArrowUp', 38], ArrowDown: ['ArrowDown', 40], ArrowLeft: ['ArrowLeft', 37], ArrowRight: ['ArrowRight', 39], Home: ['Home', 36], End: ['End', 35], PageUp: ['PageUp', 33], PageDown: ['PageDown', 34],
  Shift: ['ShiftLeft', 16], Control: ['ControlLeft', 17], Alt: ['AltLeft', 18], Meta: ['MetaLeft', 91],
};

export async function withDebugger<T>(tabId: number, fn: (send: (method: string, params?: object) => Promise<unknown>) => Promise<T>): Promise<T> {
  const target: Debuggee = { tabId };
  await chrome.debugger.attach(target, PROTOCOL);
  try {
    return await fn((method, params) => chrome.debugger.sendCommand(target, method, params) as Promise<unknown>);
  } finally {
    await chrome.debugger.detach(target).catch(() => undefined);
  }
}

function keyInfo(key: string): { key: string; code: string; vk: number; text?: string } {
  const named = NAMED_KEYS[key];
  if (named) return { key, code: named[0], vk: named[1], ...(named[2] === undefined ? {} : { text: named[2] }) };
  if (key.length === 1) {
    const upper = key.toUpperCase();
    const isLetter = upper >= 'A' && upper <= 'Z';
    const isDigit = key >= '0' && key <= '9';
    return { key, code: isLetter ? `Key${upper}` : isDigit ? `Digit${key}` : '', vk: isLetter || isDigit ? upper.charCodeAt(0) : 0, text: key };
  }
  return { key, code: key, vk: 0 };
}

export async function performTrustedInput(tabId: number, req: TrustedInputRequest): Promise<void> {
  await withDebugger(tabId, async (send) => {
    if (req.kind === 'mouse') {
      const modifiers = (req.modifiers ?? []).reduce((m, k) => m | (MODIFIER_BITS[k] ?? 0), 0);
      const base = { x: req.x, y: req.y, modifiers };
      // A background tab's renderer acks mouse input only after ~5 s (measured: 5026 ms per
      // click); focus emulation makes the page "visible" for this debugger session only, and the
      // click lands at once (seed 002 clicks tabs that are not in focus).
      await send('Emulation.setFocusEmulationEnabled', { enabled: true });
      await send('Input.dispatchMouseEvent', { ...base, type: 'mouseMoved' });
      if (req.click_count === 0) return; // hover
      const button = req.button ?? 'left';
      for (let i = 1; i <= req.click_count; i++) {
        await send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed', button, clickCount: i });
        await send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', button, clickCount: i });
      }
      return;
    }
    if (req.kind === 'insert_text') {
      // Select all (the editing command, so it works whatever the platform's shortcut), delete, insert.
      const a = keyInfo('a');
      await send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17, modifiers: 2 });
      await send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: a.key, code: a.code, windowsVirtualKeyCode: a.vk, modifiers: 2, commands: ['selectAll'] });
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key: a.key, code: a.code, windowsVirtualKeyCode: a.vk, modifiers: 2 });
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Control', code: 'ControlLeft', windowsVirtualKeyCode: 17, modifiers: 0 });
      await send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46 });
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Delete', code: 'Delete', windowsVirtualKeyCode: 46 });
      if (req.text) await send('Input.insertText', { text: req.text });
      return;
    }
    for (const chord of req.keys) {
      const parts = chord.length > 1 && chord.includes('+') ? chord.split('+') : [chord];
      const main = parts.pop() as string;
      let modifiers = 0;
      for (const m of parts) {
        modifiers |= MODIFIER_BITS[m] ?? 0;
        const k = keyInfo(m);
        await send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
      }
      const k = keyInfo(main);
      const withText = k.text !== undefined && (modifiers & ~MODIFIER_BITS['Shift']!) === 0;
      await send('Input.dispatchKeyEvent', { type: withText ? 'keyDown' : 'rawKeyDown', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers, ...(withText ? { text: k.text, unmodifiedText: k.text } : {}) });
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
      for (const m of parts.reverse()) {
        modifiers &= ~(MODIFIER_BITS[m] ?? 0);
        const mk = keyInfo(m);
        await send('Input.dispatchKeyEvent', { type: 'keyUp', key: mk.key, code: mk.code, windowsVirtualKeyCode: mk.vk, modifiers });
      }
      if (req.delay_ms) await new Promise((r) => setTimeout(r, req.delay_ms));
    }
  });
}

/**
 * How a pointer/keyboard action runs in trusted mode (chrome.storage.local trusted_input = true):
 * the page side of the target's frame resolves it and runs the Playwright actionability checks
 * without firing any event (content `prepare`: the action point, optionally focusing it), then the
 * worker dispatches the real input (a subframe's point shifted by the frame's offset, see
 * dispatch.ts), and for fill/type reads the value back.
 */
export interface TrustedPlan {
  /** Page-side preparation of the target (null: keys go to whatever has focus). */
  prepare: { checks: PrepareRequest['checks']; focus: boolean; params: Record<string, unknown> } | null;
  input(prepared: Record<string, unknown>): TrustedInputRequest | null;
  /** Read the target's value after the input (fill/type results carry it). */
  readValue: boolean;
  result(prepared: Record<string, unknown>, value: Record<string, unknown>): Record<string, unknown>;
  /** Message prefix, e.g. "Trusted click". */
  verb: string;
}

const TARGET_KEYS = ['element_id', 'index', 'role', 'name', 'exact', 'selector', 'timeout_ms', 'force'];
const pick = (p: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(p).filter(([k]) => keys.includes(k)));
const pointOf = (r: Record<string, unknown>) => (typeof r['x'] === 'number' && typeof r['y'] === 'number' ? { x: r['x'] as number, y: r['y'] as number } : null);

export function trustedPlan(action: string, params: unknown): TrustedPlan | null {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const modifiers = Array.isArray(p['modifiers']) ? (p['modifiers'] as string[]) : [];
  if (action === 'click' || action === 'double_click' || action === 'hover') {
    const clickCount = action === 'hover' ? 0 : action === 'double_click' ? 2 : typeof p['click_count'] === 'number' ? (p['click_count'] as number) : 1;
    const button = p['button'] === 'right' || p['button'] === 'middle' ? (p['button'] as 'right' | 'middle') : 'left';
    return {
      prepare: { checks: action === 'hover' ? 'hover' : 'pointer', focus: false, params: pick(p, TARGET_KEYS) },
      input: (r) => {
        const pt = pointOf(r);
        return pt ? { kind: 'mouse', ...pt, button, click_count: clickCount, modifiers } : null;
      },
      readValue: false,
      result: (r) => pick(r, ['element_id', 'x', 'y']),
      verb: action === 'hover' ? 'Trusted hover' : `Trusted ${clickCount === 2 ? 'double ' : ''}click`,
    };
  }
  if ((action === 'fill' && typeof p['value'] === 'string') || (action === 'type' && typeof p['text'] === 'string')) {
    const text = (action === 'fill' ? p['value'] : p['text']) as string;
    const delay = typeof p['delay_ms'] === 'number' ? (p['delay_ms'] as number) : 0;
    return {
      prepare: { checks: 'edit', focus: true, params: pick(p, TARGET_KEYS) },
      input: (r) => (r['focused'] !== true ? null : action === 'fill' ? { kind: 'insert_text', text } : { kind: 'keys', keys: [...text].map((c) => (c === '\n' ? 'Enter' : c)), ...(delay ? { delay_ms: delay } : {}) }),
      readValue: true,
      result: (r, v) => ({ element_id: r['element_id'], ...v }),
      verb: action === 'fill' ? 'Trusted fill' : 'Trusted typing',
    };
  }
  if (action === 'press' && typeof p['key'] === 'string') {
    const key = p['key'] as string;
    const hasTarget = TARGET_KEYS.slice(0, 6).some((k) => p[k] !== undefined);
    return {
      prepare: hasTarget ? { checks: 'none', focus: true, params: pick(p, TARGET_KEYS.filter((k) => k !== 'force')) } : null,
      input: () => ({ kind: 'keys', keys: [key] }),
      readValue: false,
      result: () => ({ keys: [key] }),
      verb: 'Trusted key press',
    };
  }
  return null;
}
