// The action journal as the disk hands it back: bounded per session, ended sessions dropped, damaged
// lines skipped with one WARN (never a crash), no page state or large results kept, compacted, and
// cheap enough to write before every action.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { ACTION_JOURNAL_FILE, ActionJournal } from '../../bridge/src/action-journal';
import { tokenHash } from '../../bridge/src/session-store';
import type { ActionMessage, ActionResultMessage } from '../../schemas/generated/protocol';

const S1 = tokenHash('token-one');
const S2 = tokenHash('token-two');
const click = (id: string): ActionMessage => ({ type: 'action', action_id: id, action: 'click', params: { element_id: 'e1' }, tab_id: 3 });
const answer = (id: string, extra: Partial<ActionResultMessage> = {}): ActionResultMessage => ({
  type: 'action_result',
  original_action_id: id,
  action: 'click',
  tab_id: 3,
  status: 'success',
  outcome_details: { message: `Clicked ${id}.` },
  new_simplified_state: null,
  error_info: null,
  ...extra,
});

describe('action journal (actions.journal)', () => {
  let dir: string;
  let file: string;
  let warnings: string[];
  const open = (capacity = 8) => new ActionJournal(file, { capacity, warn: (m) => warnings.push(m) });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-journal-'));
    file = path.join(dir, ACTION_JOURNAL_FILE);
    warnings = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('brings back started and answered ids of live sessions; reads are not journaled', () => {
    const j = open();
    j.load(new Set());
    j.begin(S1, click('a'));
    j.done(S1, 'a', answer('a'));
    j.begin(S1, click('b'));
    j.begin(S1, { type: 'action', action_id: 'r', action: 'get_state', params: {} });
    j.done(S1, 'r', answer('r', { action: 'get_state' }));
    // kill -9: no close()
    const again = open().load(new Set([S1]));
    expect([...(again.get(S1)?.keys() ?? [])]).to.deep.equal(['a', 'b']);
    expect(again.get(S1)?.get('a')?.result?.outcome_details?.message).to.equal('Clicked a.');
    expect(again.get(S1)?.get('b')).to.deep.equal({ action: 'click', result: null });
    expect(warnings).to.deep.equal([]);
  });

  it('keeps the newest `capacity` ids per session, drops ended sessions and compacts the file on load', () => {
    const j = open(3);
    j.load(new Set());
    for (let i = 0; i < 10; i++) {
      j.begin(S1, click(`a${i}`));
      j.done(S1, `a${i}`, answer(`a${i}`));
    }
    j.begin(S2, click('gone'));
    j.endSession(S2);
    j.begin(S2, click('not-saved'));
    const kept = open(3).load(new Set([S1])); // S2 is not in sessions.json: it ended
    expect([...(kept.get(S1)?.keys() ?? [])]).to.deep.equal(['a7', 'a8', 'a9']);
    expect(kept.has(S2)).to.equal(false);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines, 'rewritten with only what is kept').to.have.length(6);
    expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
  });

  it('compacts while running when the file outgrows what it keeps', () => {
    const j = open(2);
    j.load(new Set());
    for (let i = 0; i < 500; i++) {
      j.begin(S1, click(`a${i}`));
      j.done(S1, `a${i}`, answer(`a${i}`));
    }
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).to.be.below(4 * (2 + 64) + 10);
  });

  it('keeps no page state and no large result on disk', () => {
    const j = open();
    j.load(new Set());
    j.begin(S1, { type: 'action', action_id: 'ev', action: 'evaluate', params: { expression: 'document.body.innerText' } });
    j.done(S1, 'ev', {
      ...answer('ev', { action: 'evaluate' }),
      outcome_details: {
        message: 'Evaluated.',
        result: { value: 'secret page text '.repeat(500) } as never,
        api_activity: [{ method: 'GET', url: 'https://bank.test/api?token=abc' }] as never,
        dialog: { type: 'alert', message: 'Your code is 1234' } as never,
      },
      new_simplified_state: { url: 'https://bank.test/', title: 'Bank', tab_id: 3 } as never,
    });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.to.contain('secret page text');
    expect(text).not.to.contain('bank.test');
    expect(text).not.to.contain('innerText');
    expect(text).not.to.contain('1234');
    const back = open()
      .load(new Set([S1]))
      .get(S1)
      ?.get('ev')?.result;
    expect(back?.outcome_details?.message).to.match(/too large to keep across a bridge restart; take a new state/);
  });

  for (const [what, text] of [
    [
      'a truncated last line (crash mid-write)',
      `{"k":"start","s":"${S1}","id":"ok","a":"click"}\n{"k":"done","s":"${S1}","id":"ok","r":{"type":"act`,
    ],
    ['garbage', `\u0000\u0001\n{"k":"start","s":"${S1}","id":"ok","a":"click"}\n`],
    ['an unknown action', `{"k":"start","s":"${S1}","id":"x","a":"format_disk"}\n{"k":"start","s":"${S1}","id":"ok","a":"click"}\n`],
    [
      'a result that is not an action_result',
      `{"k":"start","s":"${S1}","id":"ok","a":"click"}\n{"k":"done","s":"${S1}","id":"ok","r":{"type":"action_result","status":"yes"}}\n`,
    ],
  ] as const) {
    it(`${what}: skipped with one WARN; the good lines still count`, () => {
      fs.writeFileSync(file, text);
      const kept = open().load(new Set([S1]));
      expect(kept.get(S1)?.get('ok')).to.deep.equal({ action: 'click', result: null });
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/damaged line\(s\).*may run a second time/);
    });
  }

  it('an unwritable journal is reported once per streak and the bridge keeps going', () => {
    fs.mkdirSync(path.join(dir, 'sub'));
    const errors: unknown[] = [];
    let recovered = 0;
    const j = new ActionJournal(path.join(dir, 'sub', ACTION_JOURNAL_FILE), {
      capacity: 8,
      warn: () => undefined,
      onWriteError: (e) => errors.push(e),
      onRecovered: () => (recovered += 1),
    });
    fs.rmSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'sub'), 'a file where the config dir was'); // every write fails, even as root
    j.load(new Set());
    j.begin(S1, click('a'));
    j.begin(S1, click('b'));
    expect(errors).to.have.length(1);
    fs.rmSync(path.join(dir, 'sub'));
    fs.mkdirSync(path.join(dir, 'sub'));
    j.begin(S1, click('c'));
    expect(recovered).to.equal(1);
    // What could not be written during the failure is on disk now too.
    const back = new ActionJournal(path.join(dir, 'sub', ACTION_JOURNAL_FILE), { capacity: 8, warn: () => undefined }).load(new Set([S1]));
    expect([...(back.get(S1)?.keys() ?? [])]).to.deep.equal(['a', 'b', 'c']);
  });

  it('a failing journal is written again by itself once the disk works, and says so', async () => {
    const sub = path.join(dir, 'sub');
    fs.writeFileSync(sub, 'a file where the config dir was');
    let recovered = 0;
    const j = new ActionJournal(path.join(sub, ACTION_JOURNAL_FILE), {
      capacity: 8,
      warn: () => undefined,
      onRecovered: () => (recovered += 1),
      retryMs: 30,
    });
    j.load(new Set());
    j.begin(S1, click('a'));
    fs.rmSync(sub);
    fs.mkdirSync(sub); // no further action: the retry notices
    await new Promise((r) => setTimeout(r, 120));
    expect(recovered).to.equal(1);
    expect(fs.readFileSync(path.join(sub, ACTION_JOURNAL_FILE), 'utf8')).to.contain('"id":"a"');
    j.close();
  });

  it('a journal whose folder was removed under it is written again whole, not into the deleted file', () => {
    const sub = path.join(dir, 'sub');
    fs.mkdirSync(sub);
    const j = new ActionJournal(path.join(sub, ACTION_JOURNAL_FILE), { capacity: 8, warn: () => undefined });
    j.load(new Set());
    j.begin(S1, click('a'));
    fs.rmSync(sub, { recursive: true }); // the open handle now points at a deleted file
    j.begin(S1, click('b'));
    const back = new ActionJournal(path.join(sub, ACTION_JOURNAL_FILE), { capacity: 8, warn: () => undefined }).load(new Set([S1]));
    expect([...(back.get(S1)?.keys() ?? [])]).to.deep.equal(['a', 'b']);
  });

  it('costs well under a millisecond per action (start + answer)', () => {
    const j = open(256);
    j.load(new Set());
    const n = 2000;
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      j.begin(S1, click(`a${i}`));
      j.done(S1, `a${i}`, answer(`a${i}`));
    }
    const perActionMs = Number(process.hrtime.bigint() - t) / 1e6 / n;
    if (process.env['BUX_BENCH']) console.log(`action journal: ${perActionMs.toFixed(4)} ms per action`);
    expect(perActionMs).to.be.below(1);
  });
});
