// Playwright's key syntax (https://playwright.dev/docs/api/class-keyboard#keyboard-press), parsed
// into the key/code/keyCode/text/location a US keyboard produces. The table is Playwright's
// USKeyboardLayout (every code it knows, incl. ControlRight, NumpadSubtract, media keys), looked up
// by code ("KeyA", "ShiftRight") or by key ("a", "Shift", "-"; the first code that produces a key
// wins, as in Playwright). Pure (no DOM): the content script and the worker's trusted input both
// use it, and it is unit-tested alone. Lookups go through Maps: "toString" or "__proto__" are
// unknown keys, never Object.prototype members.
//   "Enter", "a", "A", "KeyA", "Digit1", "F5", "ArrowDown", "Control+A", "Shift+Tab", "Control+Shift+T",
//   "Shift++" (Shift and the "+" key), "ControlOrMeta+A" (Meta on macOS, Control elsewhere).

export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';
export const MODIFIERS: readonly Modifier[] = ['Alt', 'Control', 'Meta', 'Shift'];

export interface KeyDef {
  /** KeyboardEvent.key */
  key: string;
  /** KeyboardEvent.code ("" for characters a US layout does not have). */
  code: string;
  /** Legacy KeyboardEvent.keyCode / which (Windows virtual key code without location: 16 for either Shift). */
  keyCode: number;
  /** Text the key inserts ("" for keys that insert nothing; "\r" for Enter as in Chrome's keypress). */
  text: string;
  /** KeyboardEvent.location: 0 standard, 1 left, 2 right, 3 numpad. */
  location: number;
}

export interface Chord {
  modifiers: Modifier[];
  /** The modifier keys as pressed (ShiftRight keeps location 2); same order as `modifiers`. */
  modifierKeys?: KeyDef[];
  key: KeyDef;
}

export type ParseResult = { ok: true; chord: Chord } | { ok: false; reason: string; unknownKey?: string };

interface LayoutKey {
  key: string;
  keyCode: number;
  keyCodeWithoutLocation?: number;
  shiftKey?: string;
  shiftKeyCode?: number;
  text?: string;
  location?: number;
}

// Playwright's USKeyboardLayout (packages/playwright-core/src/server/usKeyboardLayout.ts), same data.
const LAYOUT: [string, LayoutKey][] = [
  ['Escape', { keyCode: 27, key: 'Escape' }],
  ...Array.from({ length: 12 }, (_, i): [string, LayoutKey] => [`F${i + 1}`, { keyCode: 112 + i, key: `F${i + 1}` }]),
  ['Backquote', { keyCode: 192, shiftKey: '~', key: '`' }],
  ['Digit1', { keyCode: 49, shiftKey: '!', key: '1' }],
  ['Digit2', { keyCode: 50, shiftKey: '@', key: '2' }],
  ['Digit3', { keyCode: 51, shiftKey: '#', key: '3' }],
  ['Digit4', { keyCode: 52, shiftKey: '$', key: '4' }],
  ['Digit5', { keyCode: 53, shiftKey: '%', key: '5' }],
  ['Digit6', { keyCode: 54, shiftKey: '^', key: '6' }],
  ['Digit7', { keyCode: 55, shiftKey: '&', key: '7' }],
  ['Digit8', { keyCode: 56, shiftKey: '*', key: '8' }],
  ['Digit9', { keyCode: 57, shiftKey: '(', key: '9' }],
  ['Digit0', { keyCode: 48, shiftKey: ')', key: '0' }],
  ['Minus', { keyCode: 189, shiftKey: '_', key: '-' }],
  ['Equal', { keyCode: 187, shiftKey: '+', key: '=' }],
  ['Backslash', { keyCode: 220, shiftKey: '|', key: '\\' }],
  ['Backspace', { keyCode: 8, key: 'Backspace' }],
  ['Tab', { keyCode: 9, key: 'Tab' }],
  ...[...'qwertyuiop'].map(letter),
  ['BracketLeft', { keyCode: 219, shiftKey: '{', key: '[' }],
  ['BracketRight', { keyCode: 221, shiftKey: '}', key: ']' }],
  ['CapsLock', { keyCode: 20, key: 'CapsLock' }],
  ...[...'asdfghjkl'].map(letter),
  ['Semicolon', { keyCode: 186, shiftKey: ':', key: ';' }],
  ['Quote', { keyCode: 222, shiftKey: '"', key: "'" }],
  ['Enter', { keyCode: 13, key: 'Enter', text: '\r' }],
  ['ShiftLeft', { keyCode: 160, keyCodeWithoutLocation: 16, key: 'Shift', location: 1 }],
  ...[...'zxcvbnm'].map(letter),
  ['Comma', { keyCode: 188, shiftKey: '<', key: ',' }],
  ['Period', { keyCode: 190, shiftKey: '>', key: '.' }],
  ['Slash', { keyCode: 191, shiftKey: '?', key: '/' }],
  ['ShiftRight', { keyCode: 161, keyCodeWithoutLocation: 16, key: 'Shift', location: 2 }],
  ['ControlLeft', { keyCode: 162, keyCodeWithoutLocation: 17, key: 'Control', location: 1 }],
  ['MetaLeft', { keyCode: 91, key: 'Meta', location: 1 }],
  ['AltLeft', { keyCode: 164, keyCodeWithoutLocation: 18, key: 'Alt', location: 1 }],
  ['Space', { keyCode: 32, key: ' ' }],
  ['AltRight', { keyCode: 165, keyCodeWithoutLocation: 18, key: 'Alt', location: 2 }],
  ['AltGraph', { keyCode: 225, key: 'AltGraph' }],
  ['MetaRight', { keyCode: 92, key: 'Meta', location: 2 }],
  ['ContextMenu', { keyCode: 93, key: 'ContextMenu' }],
  ['ControlRight', { keyCode: 163, keyCodeWithoutLocation: 17, key: 'Control', location: 2 }],
  ['PrintScreen', { keyCode: 44, key: 'PrintScreen' }],
  ['ScrollLock', { keyCode: 145, key: 'ScrollLock' }],
  ['Pause', { keyCode: 19, key: 'Pause' }],
  ['PageUp', { keyCode: 33, key: 'PageUp' }],
  ['PageDown', { keyCode: 34, key: 'PageDown' }],
  ['Insert', { keyCode: 45, key: 'Insert' }],
  ['Delete', { keyCode: 46, key: 'Delete' }],
  ['Home', { keyCode: 36, key: 'Home' }],
  ['End', { keyCode: 35, key: 'End' }],
  ['ArrowLeft', { keyCode: 37, key: 'ArrowLeft' }],
  ['ArrowUp', { keyCode: 38, key: 'ArrowUp' }],
  ['ArrowRight', { keyCode: 39, key: 'ArrowRight' }],
  ['ArrowDown', { keyCode: 40, key: 'ArrowDown' }],
  ['AudioVolumeMute', { keyCode: 173, key: 'AudioVolumeMute' }],
  ['AudioVolumeDown', { keyCode: 174, key: 'AudioVolumeDown' }],
  ['AudioVolumeUp', { keyCode: 175, key: 'AudioVolumeUp' }],
  ['MediaTrackNext', { keyCode: 176, key: 'MediaTrackNext' }],
  ['MediaTrackPrevious', { keyCode: 177, key: 'MediaTrackPrevious' }],
  ['MediaPlayPause', { keyCode: 179, key: 'MediaPlayPause' }],
  ['NumLock', { keyCode: 144, key: 'NumLock' }],
  ['NumpadDivide', { keyCode: 111, key: '/', location: 3 }],
  ['NumpadMultiply', { keyCode: 106, key: '*', location: 3 }],
  ['NumpadSubtract', { keyCode: 109, key: '-', location: 3 }],
  ['Numpad7', { keyCode: 36, shiftKeyCode: 103, key: 'Home', shiftKey: '7', location: 3 }],
  ['Numpad8', { keyCode: 38, shiftKeyCode: 104, key: 'ArrowUp', shiftKey: '8', location: 3 }],
  ['Numpad9', { keyCode: 33, shiftKeyCode: 105, key: 'PageUp', shiftKey: '9', location: 3 }],
  ['Numpad4', { keyCode: 37, shiftKeyCode: 100, key: 'ArrowLeft', shiftKey: '4', location: 3 }],
  ['Numpad5', { keyCode: 12, shiftKeyCode: 101, key: 'Clear', shiftKey: '5', location: 3 }],
  ['Numpad6', { keyCode: 39, shiftKeyCode: 102, key: 'ArrowRight', shiftKey: '6', location: 3 }],
  ['NumpadAdd', { keyCode: 107, key: '+', location: 3 }],
  ['Numpad1', { keyCode: 35, shiftKeyCode: 97, key: 'End', shiftKey: '1', location: 3 }],
  ['Numpad2', { keyCode: 40, shiftKeyCode: 98, key: 'ArrowDown', shiftKey: '2', location: 3 }],
  ['Numpad3', { keyCode: 34, shiftKeyCode: 99, key: 'PageDown', shiftKey: '3', location: 3 }],
  ['Numpad0', { keyCode: 45, shiftKeyCode: 96, key: 'Insert', shiftKey: '0', location: 3 }],
  ['NumpadDecimal', { keyCode: 46, shiftKeyCode: 110, key: '\u0000', shiftKey: '.', location: 3 }],
  ['NumpadEnter', { keyCode: 13, key: 'Enter', text: '\r', location: 3 }],
];

function letter(c: string): [string, LayoutKey] {
  return [`Key${c.toUpperCase()}`, { keyCode: c.toUpperCase().charCodeAt(0), shiftKey: c.toUpperCase(), key: c }];
}

/** code -> layout entry; key (and shifted key) -> { code, shifted }: Playwright's buildLayoutClosure. */
const BY_CODE = new Map<string, LayoutKey>(LAYOUT);
const BY_KEY = new Map<string, { code: string; shifted: boolean }>();
for (const [code, def] of LAYOUT) {
  if (!BY_KEY.has(def.key)) BY_KEY.set(def.key, { code, shifted: false });
  if (def.shiftKey && !BY_KEY.has(def.shiftKey)) BY_KEY.set(def.shiftKey, { code, shifted: true });
}

function describe(code: string, shift: boolean): KeyDef {
  const def = BY_CODE.get(code) as LayoutKey;
  const key = shift && def.shiftKey ? def.shiftKey : def.key;
  const keyCode = shift && def.shiftKeyCode ? def.shiftKeyCode : (def.keyCodeWithoutLocation ?? def.keyCode);
  let text = key.length === 1 ? key : '';
  if (def.text) text = def.text;
  if (key === '\u0000') text = '';
  return { key, code, keyCode, text, location: def.location ?? 0 };
}

/** Aliases people and older tools write (Puppeteer/xdotool/Selenium habits). */
const ALIASES = new Map<string, string>([
  ['Esc', 'Escape'],
  ['Return', 'Enter'],
  ['Del', 'Delete'],
  ['Up', 'ArrowUp'],
  ['Down', 'ArrowDown'],
  ['Left', 'ArrowLeft'],
  ['Right', 'ArrowRight'],
  ['Ctrl', 'Control'],
  ['Cmd', 'Meta'],
  ['Command', 'Meta'],
  ['Option', 'Alt'],
  ['Spacebar', ' '],
  ['PgUp', 'PageUp'],
  ['PgDn', 'PageDown'],
]);

/** The key a US keyboard produces for a single character, or a layout-less key for anything else. */
export function keyForChar(ch: string): KeyDef {
  if (ch === '\n' || ch === '\r') return describe('Enter', false);
  if (ch === '\t') return describe('Tab', false);
  const hit = BY_KEY.get(ch);
  if (hit && [...ch].length === 1) return describe(hit.code, hit.shifted);
  return { key: ch, code: '', keyCode: 0, text: ch, location: 0 };
}

/**
 * Whether a person would hold Shift for a character on a US keyboard. `type` does not press Shift for
 * these: Playwright's keyboard.type sends the shifted key ("!" on Digit1) with no modifier.
 */
export function needsShift(ch: string): boolean {
  const hit = BY_KEY.get(ch);
  return hit !== undefined && hit.shifted && [...ch].length === 1;
}

/** A key token (code, key name or single character) -> its definition, or null. */
export function keyDef(token: string, shift = false): KeyDef | null {
  const name = ALIASES.get(token) ?? token;
  if (BY_CODE.has(name)) return describe(name, shift);
  const hit = BY_KEY.get(name);
  if (hit) return describe(hit.code, shift || hit.shifted);
  // Like Playwright's keyboard.press: a character the US layout lacks ("ё", an emoji) is not a key
  // (type inserts such characters instead).
  return null;
}

/** Splits "Control+Shift++" into ["Control", "Shift", "+"]: a trailing "+" is the plus key. */
export function splitChord(s: string): string[] {
  if (s === '+') return ['+'];
  const tokens = s.split('+');
  if (s.endsWith('++')) return [...tokens.slice(0, -2), '+'];
  return tokens;
}

/** Parses one key or chord. `isMac` resolves ControlOrMeta. */
export function parseChord(input: string, isMac = false): ParseResult {
  const tokens = splitChord(input);
  if (tokens.some((t) => t === '')) return { ok: false, reason: `"${input}" has an empty part; write chords like "Control+A".` };
  const modifiers: Modifier[] = [];
  const modifierKeys: KeyDef[] = [];
  const last = tokens[tokens.length - 1] as string;
  const resolve = (t: string) => (t === 'ControlOrMeta' ? (isMac ? 'Meta' : 'Control') : t);
  for (const raw of tokens.slice(0, -1)) {
    const def = keyDef(resolve(raw));
    if (!def || !(MODIFIERS as readonly string[]).includes(def.key)) {
      return {
        ok: false,
        reason: `Unknown modifier "${raw}" in "${input}"; use Alt, Control, Meta, Shift (or ShiftRight, ControlRight, ...) or ControlOrMeta.`,
        unknownKey: raw,
      };
    }
    if (!modifiers.includes(def.key as Modifier)) {
      modifiers.push(def.key as Modifier);
      modifierKeys.push(def);
    }
  }
  const key = keyDef(resolve(last), modifiers.includes('Shift'));
  if (!key) return { ok: false, reason: `Unknown key: "${last}"`, unknownKey: last };
  return { ok: true, chord: { modifiers, modifierKeys, key } };
}

/** The text a chord inserts: nothing when Control, Alt or Meta is held (shortcuts), else the key's text. */
export function insertedText(chord: Chord): string {
  if (chord.modifiers.some((m) => m !== 'Shift')) return '';
  return chord.key.key === 'Enter' ? '' : chord.key.text;
}

/** The left-hand key of a modifier (what a chord presses when it names only "Shift"). */
export function modifierKey(m: Modifier): KeyDef {
  return describe(`${m}Left`, false);
}
