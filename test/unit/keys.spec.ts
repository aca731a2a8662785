// Playwright key syntax parser (extension/src/shared/keys.ts): names, characters,
// code names, chords, the "+" key, aliases, ControlOrMeta, and the errors an agent sees.
import { expect } from 'chai';

import { insertedText, keyForChar, needsShift, parseChord, splitChord } from '../../extension/src/shared/keys';

const parse = (s: string, mac = false) => {
  const r = parseChord(s, mac);
  if (!r.ok) throw new Error(r.reason);
  return r.chord;
};

describe('key syntax (Playwright keyboard.press)', () => {
  it('named keys carry Chrome key, code and keyCode', () => {
    expect(parse('Enter').key).to.deep.equal({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r', location: 0 });
    expect(parse('Tab').key).to.include({ key: 'Tab', code: 'Tab', keyCode: 9, text: '' });
    expect(parse('ArrowDown').key).to.include({ key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 });
    expect(parse('Backspace').key.keyCode).to.equal(8);
    expect(parse('Escape').key.keyCode).to.equal(27);
    expect(parse('F5').key).to.include({ key: 'F5', code: 'F5', keyCode: 116 });
    expect(parse('Shift').key).to.include({ code: 'ShiftLeft', keyCode: 16, location: 1 });
  });

  it('characters and code names map to the US layout', () => {
    expect(parse('a').key).to.include({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(parse('A').key).to.include({ key: 'A', code: 'KeyA', keyCode: 65, text: 'A' });
    expect(parse('KeyZ').key).to.include({ key: 'z', code: 'KeyZ', keyCode: 90 });
    expect(parse('Digit7').key).to.include({ key: '7', code: 'Digit7', keyCode: 55 });
    expect(parse('/').key).to.include({ code: 'Slash', keyCode: 191 });
    expect(parse(' ').key).to.include({ key: ' ', code: 'Space', keyCode: 32 });
    expect(keyForChar('é')).to.include({ key: 'é', code: '', keyCode: 0, text: 'é' });
  });

  it('chords split on +, with a trailing + as the plus key', () => {
    expect(splitChord('Control+Shift+T')).to.deep.equal(['Control', 'Shift', 'T']);
    expect(splitChord('+')).to.deep.equal(['+']);
    expect(splitChord('Shift++')).to.deep.equal(['Shift', '+']);
    const c = parse('Control+Shift+T');
    expect(c.modifiers).to.deep.equal(['Control', 'Shift']);
    expect(c.key).to.include({ key: 'T', code: 'KeyT' });
    expect(parse('Shift+Tab').modifiers).to.deep.equal(['Shift']);
    expect(parse('Shift++').key).to.include({ key: '+', code: 'Equal' });
  });

  it('Shift with a character key produces the shifted character; other modifiers insert nothing', () => {
    expect(parse('Shift+a').key).to.include({ key: 'A', text: 'A' });
    expect(parse('Shift+1').key).to.include({ key: '!', code: 'Digit1' });
    expect(insertedText(parse('Shift+a'))).to.equal('A');
    expect(insertedText(parse('Control+a'))).to.equal('');
    expect(insertedText(parse('Enter'))).to.equal('', 'Enter is a default action, not text');
  });

  it('ControlOrMeta resolves by platform; common aliases are accepted', () => {
    expect(parse('ControlOrMeta+A', false).modifiers).to.deep.equal(['Control']);
    expect(parse('ControlOrMeta+A', true).modifiers).to.deep.equal(['Meta']);
    expect(parse('Ctrl+Esc').modifiers).to.deep.equal(['Control']);
    expect(parse('Ctrl+Esc').key.key).to.equal('Escape');
    expect(parse('Space').key.key).to.equal(' ');
  });

  it('unknown keys and modifiers are errors that say what to write', () => {
    const bad = parseChord('hello');
    expect(bad.ok).to.equal(false);
    expect(!bad.ok && bad.reason).to.equal('Unknown key: "hello"');
    const mod = parseChord('Hyper+A');
    expect(!mod.ok && mod.reason).to.match(/Unknown modifier "Hyper".*Alt, Control, Meta, Shift/);
    expect(parseChord('Control+').ok).to.equal(false);
  });

  it("knows every key of Playwright's US layout by code, with location (ControlRight, NumpadSubtract, media keys)", () => {
    expect(parse('ControlRight').key).to.deep.equal({ key: 'Control', code: 'ControlRight', keyCode: 17, text: '', location: 2 });
    expect(parse('ShiftRight').key).to.include({ key: 'Shift', location: 2 });
    expect(parse('NumpadSubtract').key).to.deep.equal({ key: '-', code: 'NumpadSubtract', keyCode: 109, text: '-', location: 3 });
    expect(parse('Numpad7').key).to.include({ key: 'Home', location: 3 });
    expect(parse('Shift+Numpad7').key).to.include({ key: '7', keyCode: 103, text: '7' });
    expect(parse('NumpadEnter').key).to.include({ key: 'Enter', code: 'NumpadEnter', text: '\r', location: 3 });
    expect(parse('AudioVolumeMute').key).to.include({ key: 'AudioVolumeMute', keyCode: 173 });
    expect(parse('-').key.code, 'the main-row key wins for "-"').to.equal('Minus');
    expect(parse('Shift+Digit3').key).to.include({ key: '#', text: '#' });
    expect(parse('+').key).to.include({ key: '+', code: 'Equal', keyCode: 187 });
    const c = parse('ShiftRight+ControlRight+a');
    expect(c.modifiers).to.deep.equal(['Shift', 'Control']);
    expect(c.modifierKeys?.map((k) => k.location)).to.deep.equal([2, 2]);
  });

  it('Object.prototype names and characters outside the layout are unknown keys, never prototype members', () => {
    for (const k of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'ё', '😊']) {
      const r = parseChord(k);
      expect(r.ok, k).to.equal(false);
      expect(!r.ok && r.unknownKey).to.equal(k);
    }
    expect(parseChord('toString+a').ok).to.equal(false);
  });

  it('needsShift knows the shifted characters of a US keyboard', () => {
    expect(['A', '!', '?', '_', '"'].map(needsShift)).to.deep.equal([true, true, true, true, true]);
    expect(['a', '1', '/', '-', ' '].map(needsShift)).to.deep.equal([false, false, false, false, false]);
  });
});
