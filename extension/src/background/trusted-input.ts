// Trusted input through chrome.debugger (Input.dispatchMouseEvent / Input.dispatchKeyEvent): events
// with isTrusted = true, for sites that ignore synthetic ones. The debugger is attached only for the
// one action and detached right after, so Chrome's "is debugging this browser" bar does not linger.
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
      await send('Input.dispatchMouseEvent', { ...base, type: 'mouseMoved' });
      const button = req.button ?? 'left';
      for (let i = 1; i <= req.click_count; i++) {
        await send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed', button, clickCount: i });
        await send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', button, clickCount: i });
      }
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
 * the page side does the targeting and Playwright actionability checks through a harmless action
 * (hover answers with the hit point; focus focuses the target), then the worker dispatches the real
 * input at that point. Top frame only: subframe points would need the frame's offset.
 */
export interface TrustedPlan {
  /** Page-side action that prepares the target (null: keys go to whatever has focus). */
  pageAction: 'hover' | 'focus' | null;
  pageParams: Record<string, unknown>;
  input(pageResult: Record<string, unknown>): TrustedInputRequest | null;
  result(pageResult: Record<string, unknown>): Record<string, unknown>;
}

const TARGET_KEYS = ['element_id', 'index', 'role', 'name', 'exact', 'selector', 'timeout_ms', 'force'];
const pick = (p: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(p).filter(([k]) => keys.includes(k)));

export function trustedPlan(action: string, params: unknown): TrustedPlan | null {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  if (action === 'click' || action === 'double_click') {
    const clickCount = action === 'double_click' ? 2 : typeof p['click_count'] === 'number' ? (p['click_count'] as number) : 1;
    const modifiers = Array.isArray(p['modifiers']) ? (p['modifiers'] as string[]) : [];
    const button = p['button'] === 'right' || p['button'] === 'middle' ? (p['button'] as 'right' | 'middle') : 'left';
    return {
      pageAction: 'hover',
      pageParams: pick(p, TARGET_KEYS),
      input: (r) => (typeof r['x'] === 'number' && typeof r['y'] === 'number' ? { kind: 'mouse', x: r['x'] as number, y: r['y'] as number, button, click_count: clickCount, modifiers } : null),
      result: (r) => pick(r, ['element_id', 'x', 'y']),
    };
  }
  if (action === 'press' && typeof p['key'] === 'string') {
    const key = p['key'] as string;
    const hasTarget = TARGET_KEYS.slice(0, 6).some((k) => p[k] !== undefined);
    return {
      pageAction: hasTarget ? 'focus' : null,
      pageParams: pick(p, TARGET_KEYS.filter((k) => k !== 'force')),
      input: () => ({ kind: 'keys', keys: [key] }),
      result: () => ({ keys: [key] }),
    };
  }
  return null;
}
