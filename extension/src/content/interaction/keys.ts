// Playwright's key syntax (https://playwright.dev/docs/api/class-keyboard#keyboard-press), parsed
// into the key/code/keyCode/text a US keyboard produces. Pure (no DOM), so it is unit-tested alone.
//   "Enter", "a", "A", "KeyA", "Digit1", "F5", "ArrowDown", "Control+A", "Shift+Tab", "Control+Shift+T",
//   "Shift++" (Shift and the "+" key), "ControlOrMeta+A" (Meta on macOS, Control elsewhere).

export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';
export const MODIFIERS: readonly Modifier[] = ['Alt', 'Control', 'Meta', 'Shift'];

export interface KeyDef {
  /** KeyboardEvent.key */
  key: string;
  /** KeyboardEvent.code ("" for characters a US layout does not have). */
  code: string;
  /** Legacy KeyboardEvent.keyCode / which. */
  keyCode: number;
  /** Text the key inserts ("" for keys that insert nothing; "\r" for Enter as in Chrome's keypress). */
  text: string;
  /** KeyboardEvent.location: 1 for the left modifier keys, else 0. */
  location: number;
}

export interface Chord {
  modifiers: Modifier[];
  key: KeyDef;
}

export type ParseResult = { ok: true; chord: Chord } | { ok: false; reason: string };

interface Named {
  code: string;
  keyCode: number;
  text?: string;
  location?: number;
}

const NAMED: Record<string, Named> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { code: 'Tab', keyCode: 9 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  Escape: { code: 'Escape', keyCode: 27 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  Home: { code: 'Home', keyCode: 36 },
  End: { code: 'End', keyCode: 35 },
  PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 },
  Insert: { code: 'Insert', keyCode: 45 },
  CapsLock: { code: 'CapsLock', keyCode: 20 },
  ContextMenu: { code: 'ContextMenu', keyCode: 93 },
  Shift: { code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { code: 'MetaLeft', keyCode: 91, location: 1 },
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { code: `F${i}`, keyCode: 111 + i };

/** Aliases people and older tools write (Puppeteer/xdotool/Selenium habits). */
const ALIASES: Record<string, string> = {
  Esc: 'Escape', Return: 'Enter', Del: 'Delete', Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft', Right: 'ArrowRight',
  Ctrl: 'Control', Cmd: 'Meta', Command: 'Meta', Option: 'Alt', Space: ' ', Spacebar: ' ', PgUp: 'PageUp', PgDn: 'PageDown',
};

// US layout punctuation: unshifted char, shifted char, code, keyCode.
const PUNCT: [string, string, string, number][] = [
  ['`', '~', 'Backquote', 192], ['-', '_', 'Minus', 189], ['=', '+', 'Equal', 187], ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221], ['\\', '|', 'Backslash', 220], [';', ':', 'Semicolon', 186], ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188], ['.', '>', 'Period', 190], ['/', '?', 'Slash', 191],
];
const DIGIT_SHIFTED = ')!@#$%^&*(';

/** The key a US keyboard produces for a single character, or a layout-less key for anything else. */
export function keyForChar(ch: string): KeyDef {
  if (ch === ' ') return { key: ' ', code: 'Space', keyCode: 32, text: ' ', location: 0 };
  if (ch === '\n' || ch === '\r') return { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r', location: 0 };
  if (ch === '\t') return { key: 'Tab', code: 'Tab', keyCode: 9, text: '', location: 0 };
  if (/^[a-z]$/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch, location: 0 };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch, location: 0 };
  const shiftedDigit = DIGIT_SHIFTED.indexOf(ch);
  if (shiftedDigit >= 0) return { key: ch, code: `Digit${shiftedDigit}`, keyCode: 48 + shiftedDigit, text: ch, location: 0 };
  for (const [plain, shifted, code, keyCode] of PUNCT) if (ch === plain || ch === shifted) return { key: ch, code, keyCode, text: ch, location: 0 };
  return { key: ch, code: '', keyCode: 0, text: ch, location: 0 };
}

/** Whether a character needs Shift on a US keyboard (to report shiftKey like a real keystroke). */
export function needsShift(ch: string): boolean {
  return /^[A-Z]$/.test(ch) || DIGIT_SHIFTED.includes(ch) || PUNCT.some(([, shifted]) => shifted === ch);
}

function shifted(def: KeyDef): KeyDef {
  if (/^[a-z]$/.test(def.key)) return { ...def, key: def.key.toUpperCase(), text: def.key.toUpperCase() };
  if (def.code.startsWith('Digit')) {
    const c = DIGIT_SHIFTED[Number(def.code.slice(5))] as string;
    return { ...def, key: c, text: c };
  }
  const p = PUNCT.find(([, , code]) => code === def.code);
  if (p) return { ...def, key: p[1], text: p[1] };
  return def;
}

function keyDef(token: string): KeyDef | null {
  const name = ALIASES[token] ?? token;
  const named = NAMED[name];
  if (named) return { key: name, code: named.code, keyCode: named.keyCode, text: named.text ?? '', location: named.location ?? 0 };
  if ([...name].length === 1) return keyForChar(name);
  let m = /^Key([A-Z])$/.exec(name);
  if (m) return keyForChar((m[1] as string).toLowerCase());
  m = /^Digit([0-9])$/.exec(name);
  if (m) return keyForChar(m[1] as string);
  if (name === 'Space') return keyForChar(' ');
  const p = PUNCT.find(([, , code]) => code === name);
  if (p) return keyForChar(p[0]);
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
  const last = tokens[tokens.length - 1] as string;
  for (const raw of tokens.slice(0, -1)) {
    const t = raw === 'ControlOrMeta' ? (isMac ? 'Meta' : 'Control') : (ALIASES[raw] ?? raw);
    if (!(MODIFIERS as readonly string[]).includes(t)) return { ok: false, reason: `Unknown modifier "${raw}" in "${input}"; use Alt, Control, Meta, Shift or ControlOrMeta.` };
    if (!modifiers.includes(t as Modifier)) modifiers.push(t as Modifier);
  }
  const lastName = last === 'ControlOrMeta' ? (isMac ? 'Meta' : 'Control') : last;
  let key = keyDef(lastName);
  if (!key) return { ok: false, reason: `Unknown key: "${last}"` };
  if (modifiers.includes('Shift') && key.text) key = shifted(key);
  return { ok: true, chord: { modifiers, key } };
}

/** The text a chord inserts: nothing when Control, Alt or Meta is held (shortcuts), else the key's text. */
export function insertedText(chord: Chord): string {
  if (chord.modifiers.some((m) => m !== 'Shift')) return '';
  return chord.key.key === 'Enter' ? '' : chord.key.text;
}
