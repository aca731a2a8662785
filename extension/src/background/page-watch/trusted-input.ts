// Trusted input through chrome.debugger (Input.dispatchMouseEvent / Input.dispatchKeyEvent): events
// with isTrusted = true, for sites that ignore synthetic ones. The debugger is attached only for the
// one action and detached right after (unless a CDP client holds the tab: its attachment is reused
// and kept, debugger-attachments.ts). Chrome's "is debugging this browser" info bar still stays
// after the detach, and the viewport with it shorter: see withCurrentViewport (run/trusted-run.ts).
// How an action becomes trusted input (the plan, the page's preparation) is run/trusted-run.ts.
import { type KeyDef, keyForChar, type Modifier, modifierKey, parseChord } from '../../shared/keys';
import type { TrustedInputRequest } from '../../shared/trusted-input';
import { withAttachment } from '../cdp/debugger-attachments';

type Debuggee = chrome.debugger.Debuggee;

const MODIFIER_BITS: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** A trusted action that cannot be done truthfully (off-screen point, unknown key): never a false success. */
export class TrustedInputRefused extends Error {
  constructor(
    readonly code: 'TARGET_ELEMENT_NOT_INTERACTABLE' | 'UNKNOWN_KEY',
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function withDebugger<T>(
  tabId: number,
  fn: (send: (method: string, params?: object) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const target: Debuggee = { tabId };
  // The tab's one attachment, shared with a CDP client holding it (then left attached after fn).
  return withAttachment(tabId, () => fn((method, params) => chrome.debugger.sendCommand(target, method, params) as Promise<unknown>));
}

type Send = (method: string, params?: object) => Promise<unknown>;

/** Input.dispatchKeyEvent fields of a key from the shared US layout (Playwright's crInput does the same). */
function keyEventFields(k: KeyDef, modifiers: number): Record<string, unknown> {
  return {
    key: k.key,
    code: k.code,
    windowsVirtualKeyCode: k.keyCode,
    nativeVirtualKeyCode: k.keyCode,
    location: k.location,
    isKeypad: k.location === 3,
    modifiers,
  };
}

async function keyDown(send: Send, k: KeyDef, modifiers: number, text: string): Promise<void> {
  await send('Input.dispatchKeyEvent', {
    type: text ? 'keyDown' : 'rawKeyDown',
    ...keyEventFields(k, modifiers),
    ...(text ? { text, unmodifiedText: text } : {}),
  });
}

async function keyUp(send: Send, k: KeyDef, modifiers: number): Promise<void> {
  await send('Input.dispatchKeyEvent', { type: 'keyUp', ...keyEventFields(k, modifiers) });
}

/** One chord: modifiers down (with their own location), the key, modifiers up in reverse. */
async function pressChord(send: Send, modKeys: { m: Modifier; k: KeyDef }[], key: KeyDef): Promise<void> {
  let modifiers = 0;
  for (const { m, k } of modKeys) {
    modifiers |= MODIFIER_BITS[m];
    await keyDown(send, k, modifiers, '');
  }
  const shortcut = (modifiers & ~MODIFIER_BITS.Shift) !== 0;
  const text = shortcut ? '' : key.text;
  // A modifier pressed alone is held during its own keydown (shiftKey true on Shift's keydown), as Chrome and Playwright report.
  const own = MODIFIER_BITS[key.key as Modifier] ?? 0;
  await keyDown(send, key, modifiers | own, text);
  await keyUp(send, key, modifiers);
  for (const { m, k } of [...modKeys].reverse()) {
    modifiers &= ~MODIFIER_BITS[m];
    await keyUp(send, k, modifiers);
  }
}

/** The visible viewport in CSS pixels (the coordinate space of Input.dispatchMouseEvent). */
async function viewportSize(send: Send): Promise<{ width: number; height: number } | null> {
  try {
    const m = (await send('Page.getLayoutMetrics')) as {
      cssVisualViewport?: { clientWidth: number; clientHeight: number };
      cssLayoutViewport?: { clientWidth: number; clientHeight: number };
    };
    const v = m.cssVisualViewport ?? m.cssLayoutViewport;
    return v ? { width: v.clientWidth, height: v.clientHeight } : null;
  } catch {
    return null;
  }
}

/**
 * Keyboard input as it goes: progress(n) after the n-th character (key, for keys; the whole text,
 * for insert_text) went in; stop() is asked before each one, and true ends the typing there (the page
 * started navigating: keys sent on would land in whatever the next page focuses).
 */
export interface InputWatch {
  progress?: (done: number) => void;
  stop?: () => boolean;
  /** Called with the debugger attached, right before the pointer moves: the last moment to get our
   * own bar out of the point's way (the bar may have been shown since the page chose the point). */
  beforePointer?: (x: number, y: number) => Promise<unknown>;
}

export async function performTrustedInput(tabId: number, req: TrustedInputRequest, watch: InputWatch = {}): Promise<void> {
  // Keys are parsed before the debugger is attached: an unknown key attaches nothing.
  const chords =
    req.kind === 'keys'
      ? req.keys.map((key) => {
          const parsed = parseChord(key, false);
          if (!parsed.ok)
            throw new TrustedInputRefused(
              'UNKNOWN_KEY',
              `${parsed.reason.replace(/\.$/, '')}. Use Playwright key names (US keyboard layout) such as Enter, Tab, ArrowDown, ControlRight, NumpadSubtract, or chords like Control+A.`,
              { key },
            );
          return parsed.chord;
        })
      : [];
  await withDebugger(tabId, async (send) => {
    if (req.kind === 'mouse') {
      const vp = await viewportSize(send);
      if (vp && (req.x < 0 || req.y < 0 || req.x >= vp.width || req.y >= vp.height)) {
        throw new TrustedInputRefused(
          'TARGET_ELEMENT_NOT_INTERACTABLE',
          `The element's point (${Math.round(req.x)}, ${Math.round(req.y)}) is outside the visible viewport (${vp.width}x${vp.height}), so a real click there would miss; nothing was clicked. Scroll the element (or its iframe) into view (scroll_into_view) and retry, or turn trusted_input off.`,
          { check: 'visible', reason: 'outside_viewport', x: req.x, y: req.y },
        );
      }
      const modifiers = (req.modifiers ?? []).reduce((m, k) => m | (MODIFIER_BITS[k as Modifier] ?? 0), 0);
      const base = { x: req.x, y: req.y, modifiers };
      // A background tab's renderer acks mouse input only after ~5 s (measured: 5026 ms per
      // click); focus emulation makes the page "visible" for this debugger session only, and the
      // click lands at once (seed 002 clicks tabs that are not in focus).
      await send('Emulation.setFocusEmulationEnabled', { enabled: true });
      await watch.beforePointer?.(req.x, req.y);
      await send('Input.dispatchMouseEvent', { ...base, type: 'mouseMoved' });
      if (req.click_count === 0) return; // hover
      const button = req.button ?? 'left';
      // The pressed button's mask and a pressure of 0.5 while it is down, as Playwright's crInput
      // sends them: without `force`, Chromium reports pointerdown with pressure 0 (a pen lifted).
      const buttons = { left: 1, right: 2, middle: 4 }[button];
      for (let i = 1; i <= req.click_count; i++) {
        await send('Input.dispatchMouseEvent', { ...base, type: 'mousePressed', button, buttons, clickCount: i, force: 0.5 });
        await send('Input.dispatchMouseEvent', { ...base, type: 'mouseReleased', button, buttons: 0, clickCount: i });
      }
      return;
    }
    if (req.kind === 'insert_text') {
      // Select all (the editing command, so it works whatever the platform's shortcut), delete, insert.
      const ctrl = modifierKey('Control');
      const a = keyForChar('a');
      const del = parseChord('Delete');
      await keyDown(send, ctrl, MODIFIER_BITS.Control, '');
      await send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...keyEventFields(a, MODIFIER_BITS.Control), commands: ['selectAll'] });
      await keyUp(send, a, MODIFIER_BITS.Control);
      await keyUp(send, ctrl, 0);
      if (del.ok) await pressChord(send, [], del.chord.key);
      if (req.text && !watch.stop?.()) {
        await send('Input.insertText', { text: req.text });
        watch.progress?.([...req.text].length);
      }
      return;
    }
    if (req.kind === 'type') {
      // Playwright keyboard.type: a key press per character the layout has, with no modifier held
      // ("!" is key "!", code Digit1, keyCode 49, modifiers 0, text "!": Playwright presses the
      // shifted character without Shift), Input.insertText for the rest.
      let done = 0;
      for (const ch of req.text) {
        if (done > 0 && req.delay_ms) await new Promise((r) => setTimeout(r, req.delay_ms));
        if (watch.stop?.()) return;
        const k = keyForChar(ch);
        if (k.code === '') await send('Input.insertText', { text: ch });
        else await pressChord(send, [], k);
        watch.progress?.(++done);
      }
      return;
    }
    let done = 0;
    for (const chord of chords) {
      if (watch.stop?.()) return;
      await pressChord(
        send,
        chord.modifiers.map((m, i) => ({ m, k: chord.modifierKeys?.[i] ?? modifierKey(m) })),
        chord.key,
      );
      watch.progress?.(++done);
      if (req.delay_ms) await new Promise((r) => setTimeout(r, req.delay_ms));
    }
  });
}
