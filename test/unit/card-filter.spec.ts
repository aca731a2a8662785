// The card filter against what pages and APIs are full of: order, account and tracking ids of 13
// to 19 digits. A number is masked as a card only when it has a card's digits (an issuer's prefix
// and length, Luhn: extension/src/shared/card-shape.ts) and is written as a card (grouped) or named
// as one (a card field or key, or words naming a card just before it).
import { expect } from 'chai';

import { cardIssuer, hasCardDigits, isCardGrouping, passesLuhn } from '../../extension/src/shared/card-shape';
import { redactBody, redactCardNumbers, redactJsonValue, redactText } from '../../extension/src/shared/redaction';

const MASK = '[redacted:payment_card]';

/** mulberry32: a small PRNG with a fixed seed, so every run measures the same 100,000 ids. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('card filter: ids are not cards', () => {
  it('masks at most 1 in 10,000 of 100,000 random 13-19 digit ids (plain, in JSON, in text)', function () {
    this.timeout(60_000);
    const rand = prng(0x5eed_0033);
    const N = 100_000;
    // Each id as the filter meets it: a bare value (an evaluate result), a JSON body read through CDP
    // (a string and a number under "id"), the same bodies as api_activity shows them, and page text.
    const shapes: [string, (id: string) => string, (s: string) => string][] = [
      ['plain', (id) => id, (s) => redactText(s)],
      ['json string', (id) => `{"id":"${id}"}`, (s) => redactText(s)],
      ['json number', (id) => `{"id":${id}}`, (s) => redactText(s)],
      ['json string body', (id) => `{"id":"${id}"}`, (s) => redactBody(s)],
      ['json number body', (id) => `{"id":${id}}`, (s) => redactBody(s)],
      ['text', (id) => `Order ${id} shipped`, (s) => redactText(s)],
    ];
    const masked = new Map(shapes.map(([name]) => [name, 0]));
    let luhn = 0;
    let cardDigits = 0;
    for (let i = 0; i < N; i++) {
      const len = 13 + Math.floor(rand() * 7);
      let id = String(1 + Math.floor(rand() * 9)); // no leading zero, so the id is also a JSON number
      while (id.length < len) id += String(Math.floor(rand() * 10));
      if (passesLuhn(id)) luhn++;
      if (hasCardDigits(id)) cardDigits++;
      for (const [name, wrap, filter] of shapes) {
        const s = wrap(id);
        if (filter(s) !== s) masked.set(name, (masked.get(name) ?? 0) + 1);
      }
    }
    const rates = [...masked].map(([name, n]) => `${name} ${n}/${N}`).join(', ');
    console.log(
      `      ${N} random ids: ${((luhn / N) * 100).toFixed(1)}% pass Luhn (masked before), ` +
        `${((cardDigits / N) * 100).toFixed(2)}% have a card's digits; masked now: ${rates}`,
    );
    for (const [name, n] of masked) expect(n / N, `${name}: ${n} of ${N} masked`).to.be.at.most(1 / 10_000);
    // The ids were worth measuring: many would pass the digit test alone.
    expect(luhn).to.be.greaterThan(N / 20);
    expect(cardDigits).to.be.greaterThan(100);
  });

  it("the issue's example and ids that hold a card's digits read as they are", () => {
    for (const s of [
      'Order 1234567812345670 shipped',
      '{"id":"1234567812345670"}',
      '{"id":4111111111111111,"items":[{"sku":"4012888888881881"}]}',
      'ref 378282246310005, booking 30569309025904',
      // A word naming a card further back than a label reaches does not make every later number a card.
      'We accept all major credit cards. Your order number is 4111111111111111',
      'cardinal 4111111111111111',
    ])
      expect(redactText(s), s).to.equal(s);
    expect(redactJsonValue({ id: 4242424242424242, order: { id: '4242424242424242' } })).to.deep.equal({
      id: 4242424242424242,
      order: { id: '4242424242424242' },
    });
    // A 19-digit id in a request body is shown as the page sent it, not rounded by JSON.parse.
    expect(redactBody('{"id":4111111111111111110}')).to.equal('{"id":4111111111111111110}');
  });
});

describe('card filter: cards stay masked', () => {
  const VISA19 = '4111111111111111110';
  const AMEX = '378282246310005';

  it("knows a card's digits by issuer prefix, length and Luhn", () => {
    expect(
      [VISA19, '4222222222222', AMEX, '30569309025904', '5555555555554444', '2223003122003222', '6011000990139424', '3530111333300000'].map(
        cardIssuer,
      ),
    ).to.deep.equal(['visa', 'visa', 'amex', 'diners', 'mastercard', 'mastercard', 'discover', 'jcb']);
    // Luhn-valid but no network issues it: no issuer, or the wrong length for the issuer.
    for (const n of ['1234567812345670', '41111111111111113', '3782822463100058']) expect(hasCardDigits(n), n).to.equal(false);
    expect(
      [
        [4, 4, 4, 4],
        [4, 6, 5],
        [4, 6, 4],
        [4, 4, 4, 4, 3],
        [4, 4, 4, 7],
      ].map(isCardGrouping),
    ).to.deep.equal(Array(5).fill(true));
    expect(
      [
        [3, 3, 3, 3, 3],
        [8, 8],
        [4, 4, 8],
        [2, 4, 4, 6],
      ].map(isCardGrouping),
    ).to.deep.equal(Array(4).fill(false));
  });

  it('grouped like a card: 4-4-4-4, Amex 4-6-5, Diners 4-6-4, a 19-digit Visa 4-4-4-4-3', () => {
    for (const card of ['4111 1111 1111 1111', '5500-0055-5555-5559', '3782 822463 10005', '3056-930902-5904', '4111 1111 1111 1111 110'])
      expect(redactText(`ref ${card} ok`), card).to.equal(`ref ${MASK} ok`);
    // Groups that are not a card's, or separators that change midway, are not a card written out.
    for (const s of ['ref 41111 11111 11111 1', 'ref 4111 1111-1111 1111']) expect(redactText(s), s).to.equal(s);
  });

  it('in a card field or under a card key: a cc input, cardNumber, cc_num, {"card": {"number": ...}}', () => {
    expect(redactText(VISA19, { cardContext: true })).to.equal(MASK);
    expect(redactJsonValue({ cardNumber: AMEX, card: { number: 4242424242424242, id: 'card_1' } })).to.deep.equal({
      cardNumber: MASK,
      card: { number: MASK, id: 'card_1' },
    });
    expect(redactBody(`cc_num=${VISA19}&order=4111111111111111`)).to.equal(`cc_num=${MASK}&order=4111111111111111`);
    expect(redactText(`{"paymentMethod":{"pan":"${AMEX}"},"id":"${AMEX}"}`)).to.equal(`{"paymentMethod":{"pan":"${MASK}"},"id":"${AMEX}"}`);
  });

  it('after words naming a card: "Card number:", "Credit card", Visa, Amex, cc', () => {
    for (const [before, card] of [
      ['Card number: ', '4111111111111111'],
      ['Credit card number (required): ', VISA19],
      ['Visa ', VISA19],
      ['Amex ', AMEX],
      ['cc: ', '5555555555554444'],
      ['Payment with ', '6011000990139424'],
      ['<input autocomplete="cc-number" value="', '4012888888881881'],
    ])
      expect(redactCardNumbers(`${before}${card}.`), before).to.equal(`${before}${MASK}.`);
  });
});
