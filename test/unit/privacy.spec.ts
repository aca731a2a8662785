// The privacy filter's pure parts (extension/src/shared/redaction.ts, used by content/snapshot/privacy.ts,
// the main-world request hooks and the worker): card numbers in any shape, secrets in request
// bodies and URLs by key. The element-aware parts run in the e2e suite (test/e2e/privacy.spec.ts).
import { expect } from 'chai';

import { isCardNumber, redactCardNumbers } from '../../extension/src/content/snapshot/privacy';
import { redactBody, redactText, redactUrl, secretKeyReason } from '../../extension/src/shared/redaction';

describe('privacy filter: card numbers', () => {
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
    expect(redactCardNumbers('a 5500-0055-5555-5559 b card 4242424242424242.')).to.equal(
      'a [redacted:payment_card] b card [redacted:payment_card].',
    );
    // Ungrouped and not named as a card: an id that happens to pass Luhn (card-filter.spec.ts).
    expect(redactCardNumbers('b 4242424242424242.')).to.equal('b 4242424242424242.');
    expect(redactCardNumbers('price 1,234.56 and id 98765')).to.equal('price 1,234.56 and id 98765');
    expect(redactCardNumbers('')).to.equal('');
  });
});

describe('privacy filter: card numbers with any separator', () => {
  const VISA = ['4242', '4242', '4242', '4242'];
  it('masks a card whose digit groups are joined by any one separator, also URL- or HTML-encoded', () => {
    for (const sep of [
      '\u00a0',
      '\u2009',
      '\u202f',
      '\u3000',
      '.',
      '/',
      '+',
      '_',
      '·',
      '%20',
      '%2B',
      '%C2%A0',
      '&nbsp;',
      '&#160;',
      ' ',
      '-',
    ]) {
      const text = `paid with ${VISA.join(sep)} today`;
      expect(redactCardNumbers(text), JSON.stringify(sep)).to.equal('paid with [redacted:payment_card] today');
      expect(isCardNumber(VISA.join(sep)), JSON.stringify(sep)).to.equal(true);
    }
    expect(redactCardNumbers('amex 3782.822463.10005')).to.equal('amex [redacted:payment_card]');
  });

  it('leaves ordinary numbers alone: Luhn failures, dates, times, phones, prices, thousands, IPs, versions', () => {
    for (const s of [
      'order 1234-5678-9012-3456',
      'order 4242.4242.4242.4243',
      'on 2026-11-26 12:34:56',
      'on 26/11/2026, 12.30',
      'call +1 555 010 2233 or +49 30 1234567',
      'total 1,234,567,890,123,456.00',
      'pop. 7.999.999.999.999',
      'host 192.168.100.200',
      'v1.22.333.4444',
      'price 1,234.56 and id 98765',
      'tracking 1Z999AA10123456784',
    ])
      expect(redactCardNumbers(s), s).to.equal(s);
  });
});

describe('privacy filter: request bodies (api_activity), URLs and text leaving the extension', () => {
  it('JSON bodies: secret keys masked recursively, card numbers masked anywhere, the rest kept', () => {
    const out = JSON.parse(
      redactBody(
        JSON.stringify({
          email: 'ada@example.com',
          password: 'hunter2',
          newPassword: 'n3w',
          user: { api_key: 'k-123', pin: 4711, profile: { note: 'card 4242 4242 4242 4242' } },
          payment: { number: 4242424242424242, cvc: '737', exp: '12/30' },
          items: [{ sku: 'A-1', qty: 2 }],
          shipping: 'fast',
          passport: 'P123',
        }),
      ),
    ) as unknown;
    expect(out).to.deep.equal({
      email: 'ada@example.com',
      password: '[redacted:password]',
      newPassword: '[redacted:password]',
      user: { api_key: '[redacted:password]', pin: '[redacted:one_time_code]', profile: { note: 'card [redacted:payment_card]' } },
      payment: { number: '[redacted:payment_card]', cvc: '[redacted:payment_card]', exp: '12/30' },
      items: [{ sku: 'A-1', qty: 2 }],
      shipping: 'fast',
      passport: 'P123',
    });
  });

  it('form-encoded bodies: keys and values decoded (+, %20), secrets and cards masked', () => {
    expect(redactBody('card=4242+4242+4242+4242&cvc=737&name=Ada+L')).to.equal(
      'card=[redacted:payment_card]&cvc=[redacted:payment_card]&name=Ada+L',
    );
    expect(redactBody('user=ada&user%5Fpassword=hunter2&pwd=x&q=shoes')).to.equal(
      'user=ada&user%5Fpassword=[redacted:password]&pwd=[redacted:password]&q=shoes',
    );
    expect(redactBody('number=4242%204242%204242%204242&x=1')).to.equal('number=[redacted:payment_card]&x=1');
    expect(redactBody('plain text with 4242-4242-4242-4242')).to.equal('plain text with [redacted:payment_card]');
    expect(redactBody('{"broken": "json 4242 4242 4242 4242"')).to.equal('{"broken": "json [redacted:payment_card]"');
  });

  it('URLs: a GET form card number or password, an OAuth token in the fragment; ordinary queries kept', () => {
    expect(redactUrl('https://shop.test/pay?card=4242+4242+4242+4242&exp=12%2F30&q=shoes')).to.equal(
      'https://shop.test/pay?card=[redacted:payment_card]&exp=12%2F30&q=shoes',
    );
    expect(redactUrl('https://shop.test/pay?n=4242%204242%204242%204242')).to.equal('https://shop.test/pay?n=[redacted:payment_card]');
    expect(redactUrl('https://a.test/login?user=ada&password=hunter2#access_token=abc&x=1')).to.equal(
      'https://a.test/login?user=ada&password=[redacted:password]#access_token=[redacted:password]&x=1',
    );
    expect(redactUrl('https://a.test/orders/1234-5678-9012-3456?page=2#top')).to.equal(
      'https://a.test/orders/1234-5678-9012-3456?page=2#top',
    );
    // The agent asked for cards (get_state redact_card_and_otp false): passwords stay masked.
    expect(redactUrl('https://a.test/?password=x&card=4242+4242+4242+4242', { cards: false })).to.equal(
      'https://a.test/?password=[redacted:password]&card=4242+4242+4242+4242',
    );
  });

  it('free text: URLs inside it and card numbers', () => {
    expect(redactText('Tab 3: Pay https://shop.test/pay?card=4242+4242+4242+4242&cvc=737 (loading)')).to.equal(
      'Tab 3: Pay https://shop.test/pay?card=[redacted:payment_card]&cvc=[redacted:payment_card] (loading)',
    );
    expect(redactText('no url, no card: order 12345, 2026-11-26')).to.equal('no url, no card: order 12345, 2026-11-26');
  });

  it('keys are read as words: shipping is not pin, passport is not a password', () => {
    expect(['password', 'userPassword', 'user_pwd', 'passwd', 'client_secret', 'accessToken'].map(secretKeyReason)).to.deep.equal(
      Array(6).fill('password'),
    );
    expect(['cvc', 'card_number', 'cardNumber', 'cc-num', 'securityCode'].map(secretKeyReason)).to.deep.equal(
      Array(5).fill('payment_card'),
    );
    expect(['otp', 'one_time_code', 'pin'].map(secretKeyReason)).to.deep.equal(Array(3).fill('one_time_code'));
    expect(['shipping', 'passport', 'spinner', 'email', 'cc', 'compass', 'opinion'].map(secretKeyReason)).to.deep.equal(
      Array(7).fill(null),
    );
  });
});
