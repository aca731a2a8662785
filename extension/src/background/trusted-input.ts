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
