// browser_use's get_dropdown_options text, reproduced exactly: Python's json.dumps (ensure_ascii)
// for each option text, and the closing hint line.
import { expect } from 'chai';

import { formatOptions, pyJsonString } from '../../extension/src/content/actions/dropdown';

describe('get_dropdown_options text (browser_use 0.1.48 shape)', () => {
  it('escapes like json.dumps with ensure_ascii: quotes, backslashes, controls, non-ASCII, astral pairs', () => {
    expect(pyJsonString('Germany')).to.equal('"Germany"');
    expect(pyJsonString('say "hi"\\')).to.equal('"say \\"hi\\"\\\\"');
    expect(pyJsonString('a\nb\tc\u0001')).to.equal('"a\\nb\\tc\\u0001"');
    expect(pyJsonString('Köln – 日本')).to.equal('"K\\u00f6ln \\u2013 \\u65e5\\u672c"');
    expect(pyJsonString('\u007f')).to.equal('"\\u007f"');
    expect(pyJsonString('😀')).to.equal('"\\ud83d\\ude00"');
  });

  it('lists "{index}: text=..." lines and ends with the select_dropdown_option hint', () => {
    expect(
      formatOptions([
        { index: 0, text: 'Choose' },
        { index: 1, text: 'Zürich' },
      ]),
    ).to.equal('0: text="Choose"\n1: text="Z\\u00fcrich"\nUse the exact text string in select_dropdown_option');
  });
});
