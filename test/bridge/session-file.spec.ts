// sessions.json as the disk hands it back: truncated, empty, foreign or out-of-range content is
// dropped with a WARN that says what it means (never silently, never a crash), a valid session beside
// a broken one still resumes, a failed write leaves no temp file behind, and a full disk is one ERROR
// line per streak, not one per change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import { newSecret } from '../../bridge/common/secrets';
import { DebouncedWriter, loadSessions, saveSessions, SESSIONS_FILE, tokenHash } from '../../bridge/src/session-store';
import { RawPeer } from './raw-peer';

const valid = (id: string, token: string) => ({
  session_id: id,
  token_sha256: tokenHash(token),
  max_tabs: 5,
  current_tab: 7,
  capabilities: [],
  tabs: [{ tab_id: 7, url: 'https://example.org/', leased_at: 1 }],
});

describe('saved sessions file (sessions.json)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-sessions-'));
    file = path.join(dir, SESSIONS_FILE);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const load = () => {
    const warnings: string[] = [];
    const sessions = loadSessions(file, (m) => warnings.push(m));
    return { sessions, warnings };
  };

  it('a missing file is no sessions and no warning', () => {
    expect(load()).to.deep.equal({ sessions: [], warnings: [] });
  });

  for (const [what, text, says] of [
    ['empty', '', /not valid JSON \(empty\)/],
    ['truncated', '{"version":1,"sessions":[{"session_id":"s1"', /not valid JSON \(truncated or damaged\)/],
    ['garbage', '\u0000\u0001binary', /not valid JSON/],
    ['foreign', '{"version":7,"sessions":[]}', /not one this bridge wrote/],
    ['null', 'null', /not one this bridge wrote/],
  ] as const) {
    it(`${what}: no sessions, and a WARN that says agents start new sessions`, () => {
      fs.writeFileSync(file, text);
      const { sessions, warnings } = load();
      expect(sessions).to.deep.equal([]);
      expect(warnings).to.have.length(1);
      expect(warnings[0])
        .to.match(says)
        .and.to.match(/start new sessions/);
    });
  }

  it('drops only the sessions with fields out of range, keeps the rest, and says how many', () => {
    const token = 'a'.repeat(43);
    const broken = [
      { ...valid('s-neg', token), max_tabs: -1 },
      { ...valid('s-big', token), max_tabs: 1000 },
      { ...valid('s-frac', token), current_tab: 1.5 },
      { ...valid('s-tab', token), tabs: [{ tab_id: 'seven', url: null, leased_at: 1 }] },
      { ...valid('', token) },
    ];
    fs.writeFileSync(file, JSON.stringify({ version: 1, saved_at: 'x', sessions: [valid('s-ok', token), ...broken] }));
    const { sessions, warnings } = load();
    expect(sessions.map((s) => s.session_id)).to.deep.equal(['s-ok']);
    expect(warnings).to.deep.equal(['Dropped 5 saved session(s) with fields out of range; those agents start new sessions.']);
  });

  it('a bridge started on a file with a broken session beside a good one resumes the good one', async () => {
    const token = 'b'.repeat(43);
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        saved_at: 'x',
        sessions: [valid('s-good', token), { ...valid('s-bad', 'c'.repeat(43)), max_tabs: -1 }],
      }),
    );
    const logs: string[] = [];
    const secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    const bridge = createBridge({ port: 0, secrets, stateFile: file, logger: createLogger('info', (l) => logs.push(l)) });
    await bridge.start();
    try {
      const a = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: secrets.agent_secret, sessionToken: token });
      expect(a.ack?.resumed).to.equal(true);
      expect(a.ack?.session_id).to.equal('s-good');
      expect(a.ack?.max_tabs).to.equal(5);
      a.close();
      expect(logs.join('\n')).to.match(/WARN.*Dropped 1 saved session/);
    } finally {
      await bridge.close();
    }
  });

  it('a failed write removes its temp file, and a streak of failures is reported once, then its end', () => {
    fs.mkdirSync(file); // the rename onto a directory fails, as a full disk would fail the write
    expect(() => saveSessions(file, [])).to.throw();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).to.deep.equal([]);
    let fail = true;
    const reported: string[] = [];
    const w = new DebouncedWriter(
      () => {
        if (fail) throw new Error('ENOSPC');
      },
      0,
      () => reported.push('error'),
      () => reported.push('recovered'),
    );
    for (let i = 0; i < 50; i++) w.flush();
    fail = false;
    w.flush();
    w.flush();
    expect(reported).to.deep.equal(['error', 'recovered']);
  });
});
