// sessions.json as the disk hands it back: truncated, empty, foreign or out-of-range content is
// dropped with a WARN that says what it means (never silently, never a crash), a valid session beside
// a broken one still resumes, a failed write leaves no temp file behind, and a full disk is one ERROR
// line per streak, not one per change, and agents are told (persistence_status) once per streak.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { createBridge } from '../../bridge/cli/wire';
import { AgentClient } from '../../bridge/client/agent-client';
import { createLogger } from '../../bridge/common/log';
import { newSecret } from '../../bridge/common/secrets';
import { DebouncedWriter, loadSessions, saveSessions, SESSIONS_FILE, tokenHash } from '../../bridge/src/session-store';
import type { PersistenceStatusMessage } from '../../schemas/generated/protocol';
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

  it('a failure streak ends by itself when the disk works again, without waiting for another change', async () => {
    let fail = true;
    const reported: string[] = [];
    const w = new DebouncedWriter(
      () => {
        if (fail) throw new Error('ENOSPC');
      },
      0,
      () => reported.push('error'),
      () => reported.push('recovered'),
      30,
    );
    w.schedule();
    await new Promise((r) => setTimeout(r, 100));
    expect(reported).to.deep.equal(['error']);
    fail = false; // disk space freed; nothing changes in the sessions
    await new Promise((r) => setTimeout(r, 100));
    expect(reported).to.deep.equal(['error', 'recovered']);
    w.stop();
  });

  it('agents are told once when sessions cannot be saved (persistence_status durable false), and once when they can again', async () => {
    const logs: string[] = [];
    const secrets = { extension_secret: newSecret(), agent_secret: newSecret() };
    const bridge = createBridge({ port: 0, secrets, stateFile: file, logger: createLogger('info', (l) => logs.push(l)) });
    await bridge.start();
    const peers: RawPeer[] = [];
    const client = await AgentClient.connect({ url: bridge.agentUrl, secret: secrets.agent_secret });
    try {
      const heard: PersistenceStatusMessage[] = [];
      client.on('persistence_status', (m: PersistenceStatusMessage) => heard.push(m));
      const a = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: secrets.agent_secret });
      peers.push(a);
      await new Promise((r) => setTimeout(r, 100));
      expect(
        a.received.filter((m) => m.type === 'persistence_status'),
        'nothing to tell while saving works',
      ).to.deep.equal([]);
      fs.rmSync(file, { force: true });
      fs.mkdirSync(file); // the rename onto a directory fails, as a full disk fails the write
      // Every action changes what is saved: several failing writes, one notice.
      for (let i = 0; i < 3; i++) {
        a.send({ type: 'action', action_id: `x${i}`, action: 'click', params: { element_id: 'e1' }, tab_id: 3 });
        await a.next((m) => m.type === 'action_result');
        await new Promise((r) => setTimeout(r, 80));
      }
      const told = a.received.filter((m): m is PersistenceStatusMessage => m.type === 'persistence_status');
      expect(told).to.have.length(1);
      expect(told[0]?.durable).to.equal(false);
      expect(told[0]?.message).to.match(/cannot save.*If the bridge restarts before saving works again, your session is not resumed/);
      expect(told[0]?.message, 'no path of the config dir').not.to.contain(dir);
      a.received.splice(0);
      expect(client.durable).to.equal(false);
      expect(heard.map((m) => m.durable)).to.deep.equal([false]);
      // An agent that connects during the failure is told right after hello_ack.
      const late = await RawPeer.hello(bridge.agentUrl, 'agent', { secret: secrets.agent_secret });
      peers.push(late);
      expect(((await late.next((m) => m.type === 'persistence_status')) as PersistenceStatusMessage).durable).to.equal(false);
      expect(logs.filter((l) => /could not save sessions/.test(l))).to.have.length(1);
      // Saving works again: everyone hears it once.
      fs.rmdirSync(file);
      a.send({ type: 'action', action_id: 'y', action: 'click', params: { element_id: 'e1' }, tab_id: 3 });
      const back = (await a.next((m) => m.type === 'persistence_status')) as PersistenceStatusMessage;
      expect(back.durable).to.equal(true);
      expect(back.message).to.match(/saves sessions and action ids to disk again/);
      expect(((await late.next((m) => m.type === 'persistence_status')) as PersistenceStatusMessage).durable).to.equal(true);
      await new Promise((r) => setTimeout(r, 50));
      expect(client.durable).to.equal(true);
      expect(heard.map((m) => m.durable)).to.deep.equal([false, true]);
    } finally {
      for (const p of peers) p.close();
      await client.close();
      await bridge.close();
    }
  });
});
