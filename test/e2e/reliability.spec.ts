// Issue 11 in the real setup (Chromium + built extension + bridge): nothing false (wait_for when the
// page goes away), nothing leaked (one privacy filter over every reading action), and settling that
// answers when the page has settled.
import { expect } from 'chai';
import { startHarness, type Harness } from '../harness/harness';
import { open } from './actions.helpers';

describe('e2e reliability: nothing false, nothing leaked', function () {
  let h: Harness;
  before(async function () {
    this.timeout(60_000);
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  describe('wait_for never reports success for a condition it did not see (finding 1)', () => {
    it('is NAVIGATED_AWAY when the page navigates before the condition is met', async () => {
      const other = h.fixtures.html('/rel-elsewhere', '<p>Another page</p>', 'Elsewhere');
      const o = await open(h, '<p>waiting</p>');
      const pending = o.call('wait_for', { text: 'never appears', timeout_ms: 5000 });
      await new Promise((r) => setTimeout(r, 400));
      await o.page.evaluate((url) => void (location.href = url), other);
      const r = await pending;
      expect(r.status, JSON.stringify(r.outcome_details)).to.equal('error');
      expect(r.error_info?.error_code, JSON.stringify(r.error_info)).to.equal('NAVIGATED_AWAY');
      expect(r.error_info?.message).to.match(/condition was not met/);
      expect(r.new_simplified_state?.url).to.equal(other);
      await o.page.close();
    });

    it('is TAB_NOT_FOUND when the tab is closed before the condition is met', async () => {
      const o = await open(h, '<p>waiting</p>');
      const pending = o.call('wait_for', { selector: '#never', timeout_ms: 5000 });
      await new Promise((r) => setTimeout(r, 400));
      await o.page.close();
      const r = await pending;
      expect(r.status, JSON.stringify(r.outcome_details)).to.equal('error');
      expect(r.error_info?.error_code).to.equal('TAB_NOT_FOUND');
    });

    it('still succeeds when the condition is met before anything goes away', async () => {
      const o = await open(h, `<p>waiting</p><script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>ready now</p>'), 200);</script>`);
      const r = await o.ok('wait_for', { text: 'ready now', timeout_ms: 5000 });
      expect(r['waited_ms']).to.be.a('number');
      await o.page.close();
    });
  });
});
