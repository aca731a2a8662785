// The privacy filter's pure parts (extension/src/content/snapshot/privacy.ts): card numbers by Luhn,
// in fields and in free text. The element-aware parts run in the e2e suite.
import { expect } from 'chai';

import { isCardNumber, redactCardNumbers } from '../../extension/src/content/snapshot/privacy';

describe('privacy filter: card numbers (Luhn)', () => {
  it('recognises valid card numbers with or without separators, and nothing else', () => {
    for (const n of ['4111111111111111', '4111 1111 1111 1111', '5500-0055-5555-5559', '378282246310005', '6011111111111117'])
      expect(isCardNumber(n), n).to.equal(true);
    for (const n of ['4111111111111112', '0000 0000 0000 0000', '123456789012', '41111111111111111111', '4111x1111x1111x1111'])
      expect(isCardNumber(n), n).to.equal(false);
  });

  it('masks card numbers inside text and leaves other numbers alone', () => {
    expect(redactCardNumbers('Card 4000 0566 5566 5556 on file, order 1234567890123, phone +49 30 1234567')).to.equal(
      'Card [redacted:payment_card] on file, order 1234567890123, phone +49 30 1234567',
    );
    expect(redactCardNumbers('a 5500-0055-5555-5559 b 4242424242424242.')).to.equal('a [redacted:payment_card] b [redacted:payment_card].');
    expect(redactCardNumbers('price 1,234.56 and id 98765')).to.equal('price 1,234.56 and id 98765');
    expect(redactCardNumbers('')).to.equal('');
  });
});
