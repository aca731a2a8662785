// get_cookies in real Chromium: the agent reads the cookies of the site its own tab shows, HttpOnly
// ones set by the server included (Playwright's context.cookies()), and never a cookie of another
// site the person has open in the same browser.
import { expect } from 'chai';

import type { GetCookiesResult } from '../../schemas/generated/protocol';
import { type Harness, useHarness } from '../harness/harness';
import { quietSettle } from './actions.helpers';

describe('e2e get_cookies', function () {
  let h: Harness;
  useHarness((started) => (h = started), { prepare: quietSettle });

  /** The same fixture server under another origin: cookies are kept per host, not per port. */
  const otherOrigin = (p: string) => h.fixtures.url(p).replace('127.0.0.1', 'localhost');

  before(() => {
    h.fixtures.route('/shop.html', {
      body: '<!doctype html><title>Shop</title><p>Shop</p><script>document.cookie = "theme=dark; path=/";</script>',
      contentType: 'text/html',
      headers: { 'set-cookie': 'sid=shop-session-s3cr3t; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600' },
    });
    h.fixtures.route('/account/page.html', {
      body: '<!doctype html><title>Account</title><p>Account</p>',
      contentType: 'text/html',
      headers: { 'set-cookie': 'acct=42; Path=/account' },
    });
    h.fixtures.route('/bank.html', {
      body: '<!doctype html><title>Bank</title><p>Bank</p>',
      contentType: 'text/html',
      headers: { 'set-cookie': 'bank_session=bank-s3cr3t; Path=/; HttpOnly' },
    });
  });

  it("returns the agent's site's cookies (HttpOnly included, as Playwright) and never another site's", async () => {
    // The person is logged in to another site in the same browser.
    await h.openPage(otherOrigin('/bank.html'));
    const page = await h.openPage(h.fixtures.url('/account/page.html'));
    await page.goto(h.fixtures.url('/shop.html'), { waitUntil: 'load' });
    const agent = await h.connectAgent();
    const first = await agent.call('get_state', {});
    expect(first.status, JSON.stringify(first.error_info)).to.equal('success');

    const all = await agent.call('get_cookies', {});
    expect(all.status, JSON.stringify(all.error_info)).to.equal('success');
    const r = all.outcome_details?.result as GetCookiesResult;
    const byName = new Map(r.cookies.map((c) => [c.name, c]));
    expect([...byName.keys()].sort()).to.deep.equal(['acct', 'sid', 'theme']);
    expect(byName.get('sid')).to.deep.include({
      value: 'shop-session-s3cr3t',
      domain: '127.0.0.1',
      path: '/',
      http_only: true,
      secure: false,
      same_site: 'Strict',
    });
    expect(byName.get('sid')!.expires).to.be.greaterThan(Date.now() / 1000);
    expect(byName.get('theme')).to.deep.include({ value: 'dark', http_only: false, expires: -1, same_site: 'Lax' });
    expect(byName.get('acct')!.path).to.equal('/account');
    expect(r.origins).to.deep.equal([new URL(h.fixtures.url('/')).origin]);
    expect(JSON.stringify(all)).not.to.contain('bank');

    // urls: Playwright's filter (the path counts); another site's URL gets nothing, and says so.
    const some = await agent.call('get_cookies', { urls: [h.fixtures.url('/shop.html?q=1'), otherOrigin('/bank.html?t=x')] });
    const s = some.outcome_details?.result as GetCookiesResult;
    expect(s.cookies.map((c) => c.name).sort()).to.deep.equal(['sid', 'theme']);
    expect(s.skipped_urls).to.deep.equal([{ url: otherOrigin('/bank.html'), reason: 'not_a_leased_origin' }]);
    expect(some.outcome_details?.message).to.contain('Not read').and.contain(otherOrigin('/bank.html'));
    expect(JSON.stringify(some)).not.to.contain('bank-s3cr3t');

    // The person's tab on the other site is not the agent's: naming it is refused.
    const tabs = await agent.call('list_tabs', {});
    const bankTab = (tabs.outcome_details?.result as { tabs: { tab_id: number; url: string }[] }).tabs.find((t) =>
      t.url.startsWith(otherOrigin('/')),
    );
    const refused = await agent.call('get_cookies', { tab_ids: [bankTab!.tab_id] });
    expect(refused.error_info?.error_code).to.equal('TAB_NOT_LEASED');
    expect(JSON.stringify(refused)).not.to.contain('bank-s3cr3t');
  });
});
