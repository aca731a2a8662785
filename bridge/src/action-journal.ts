// Action ids survive a bridge crash: an append-only journal next to sessions.json.
//
// The agent client re-sends an unanswered action with the same action_id after it reconnects; the
// bridge must never run a side-effecting action twice. sessions.json brings the session back, but the
// ids it ran lived only in memory, so a kill -9 while a click waited for the page to settle made the
// restarted bridge click again. Before such an action is sent to the extension its id is written here
// ("start"); its answer is written when it arrives ("done"). After a restart:
//   - an id with an answer gets that answer again (a compact form: no page state);
//   - an id started but never answered gets a typed "outcome unknown" failure, never a rerun.
// Read-only actions (and waits) are not journaled at all: running them again is harmless and their
// answers (page states, extracted text, screenshots) are exactly what must not be kept on disk.
//
// Cost: one write(2) of ~150 bytes per start and per answer, synchronous, without fsync. A bridge
// crash (kill -9, an uncaught error) loses nothing once write() returned: the bytes are in the
// kernel's page cache. fsync would add milliseconds per action and protects only against the machine
// itself going down, after which the browser and its pages are gone too.
//
// Bounded: per session the newest `capacity` ids (the in-memory record's size); an ended session's
// lines are dropped; the file is rewritten compactly on load and whenever it grew well past what it
// holds. A damaged line (a crash mid-write, a disk error) is skipped with one WARN, never a crash.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { ActionMessage, ActionResultMessage, ErrorInfo, OutcomeDetails } from '../../schemas/generated/protocol';
import { ACTION_NAMES } from '../../schemas/generated/registry';
import { errorResult } from '../../schemas/lib/action-result';
import { READ_ONLY_ACTIONS } from '../../schemas/lib/read-only-actions';
import { checkMessage, errorInfo } from '../../schemas/lib/wire';
import type { Logger } from '../common/log';

export const ACTION_JOURNAL_FILE = 'actions.journal';

/** An action's own result kept on disk only up to this size (open_tab's tab id, a click's outcome);
 * larger ones (evaluate's return value) are page content and are dropped from the record. */
const MAX_KEPT_RESULT_CHARS = 2048;

/** What the journal remembers of an action: started only, or its (compact) answer. */
export type JournalEntry = { action: ActionMessage['action']; result: ActionResultMessage | null };

type Line =
  | { k: 'start'; s: string; id: string; a: ActionMessage['action'] }
  | { k: 'done'; s: string; id: string; r: ActionResultMessage }
  | { k: 'end'; s: string };

export interface ActionJournalOptions {
  /** Ids kept per session (the bridge's resultCacheSize). */
  capacity: number;
  /** A damaged journal on load (WARN). */
  warn: (message: string, fields: Record<string, unknown>) => void;
  /** A write failed (first of a streak: ERROR, agents told) / writes work again. */
  onWriteError?: (e: unknown) => void;
  onRecovered?: () => void;
  /** While failing, the journal is written again this often without waiting for the next action,
   * so the end of a failure streak is noticed and told (default 5 s). */
  retryMs?: number;
}

export class ActionJournal {
  /** Per session (token SHA-256): action ids in the order they started, oldest first. */
  private readonly index = new Map<string, Map<string, JournalEntry>>();
  private fd: number | null = null;
  /** Lines appended since the last compaction: the file is rewritten when they outgrow what is kept. */
  private appended = 0;
  private failing = false;
  /** After close() (bridge shutdown) nothing more is written: answers still arriving leave their id "started". */
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly file: string,
    private readonly o: ActionJournalOptions,
  ) {}

  /**
   * Reads the journal left by the previous process, keeps the entries of `liveSessions` (the sessions
   * restored from sessions.json; every other session ended), rewrites the file compactly and opens it
   * for appending. Returns what it kept, per session.
   */
  load(liveSessions: ReadonlySet<string>): ReadonlyMap<string, ReadonlyMap<string, JournalEntry>> {
    let raw = '';
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.o.warn(
          `Could not read the action journal: ${e instanceof Error ? e.message : String(e)}. Actions agents re-send after this restart may run a second time.`,
          { file: this.file },
        );
    }
    let damaged = 0;
    for (const text of raw.split('\n')) {
      if (text === '') continue;
      const line = parseLine(text);
      if (line === null) damaged += 1;
      else this.apply(line);
    }
    if (damaged > 0)
      this.o.warn(
        `Skipped ${damaged} damaged line(s) of the action journal (a crash mid-write or a disk error). The actions they recorded may run a second time if an agent re-sends them.`,
        { file: this.file },
      );
    for (const key of [...this.index.keys()]) if (!liveSessions.has(key)) this.index.delete(key);
    this.compact();
    return this.index;
  }

  /** Records that an action is about to be sent to the extension. Read-only actions are not recorded. */
  begin(session: string, action: ActionMessage): void {
    if (READ_ONLY_ACTIONS.has(action.action)) return;
    this.apply({ k: 'start', s: session, id: action.action_id, a: action.action });
    this.append({ k: 'start', s: session, id: action.action_id, a: action.action });
  }

  /** Records the answer of an action begun here (compact: no page state, no large result). */
  done(session: string, actionId: string, result: ActionResultMessage): void {
    if (!this.index.get(session)?.has(actionId)) return; // a read (never journaled), or an id already evicted
    const line: Line = { k: 'done', s: session, id: actionId, r: compactResult(result) };
    this.apply(line);
    this.append(line);
  }

  /** The session ended: its ids can never be re-sent, so they go. */
  endSession(session: string): void {
    if (!this.index.delete(session)) return;
    this.append({ k: 'end', s: session });
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.closeFd();
  }

  private closeFd(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private apply(line: Line): void {
    if (line.k === 'end') {
      this.index.delete(line.s);
      return;
    }
    let ids = this.index.get(line.s);
    if (!ids) this.index.set(line.s, (ids = new Map()));
    if (line.k === 'start') {
      ids.delete(line.id);
      ids.set(line.id, { action: line.a, result: null });
      while (ids.size > this.o.capacity) {
        const oldest = ids.keys().next();
        if (oldest.done) break;
        ids.delete(oldest.value);
      }
    } else {
      const entry = ids.get(line.id);
      if (entry) entry.result = line.r;
    }
  }

  private append(line: Line): void {
    if (this.closed) return;
    // After failed writes, or when the file was removed under the open handle (the config dir
    // deleted or replaced), the file is rewritten whole from memory, which already holds this line.
    if (this.failing || this.fd === null || this.unlinked()) {
      this.compact();
      return;
    }
    try {
      // A leading newline ends whatever a failed write left half-written, so only that line is lost.
      const bytes = Buffer.from(`\n${JSON.stringify(line)}\n`, 'utf8');
      if (fs.writeSync(this.fd, bytes) !== bytes.length)
        throw Object.assign(new Error('short write to the action journal'), { code: 'ENOSPC' });
      this.appended += 1;
    } catch (e) {
      this.fail(e);
      return;
    }
    if (this.appended > 4 * (this.entries() + 64)) this.compact();
  }

  private unlinked(): boolean {
    try {
      return this.fd !== null && fs.fstatSync(this.fd).nlink === 0;
    } catch {
      return true;
    }
  }

  private entries(): number {
    let n = 0;
    for (const ids of this.index.values()) n += ids.size;
    return n;
  }

  /** Rewrites the file with exactly what is kept (temp file + rename: a crash leaves old or new). */
  private compact(): void {
    const lines: string[] = [];
    for (const [s, ids] of this.index)
      for (const [id, e] of ids) {
        lines.push(JSON.stringify({ k: 'start', s, id, a: e.action } satisfies Line));
        if (e.result) lines.push(JSON.stringify({ k: 'done', s, id, r: e.result } satisfies Line));
      }
    const tmp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, lines.map((l) => l + '\n').join(''), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
      this.closeFd();
      this.fd = fs.openSync(this.file, 'a', 0o600);
      this.appended = 0;
      if (this.failing) this.o.onRecovered?.();
      this.failing = false;
    } catch (e) {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // the folder itself is gone or is a file now: there is no temp file to remove
      }
      this.fail(e);
    }
  }

  /** First failure of a streak: reported; every failure: a retry that rewrites the whole file. */
  private fail(e: unknown): void {
    if (!this.failing) this.o.onWriteError?.(e);
    this.failing = true;
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.failing && !this.closed) this.compact();
    }, this.o.retryMs ?? 5_000);
    this.retry.unref?.();
  }
}

/**
 * The journal next to sessions.json, logging like the sessions writer does. failing(error) when
 * writes start failing, failing(null) when they work again: the bridge tells agents (persistence_status).
 */
export function journalBeside(sessionsFile: string, capacity: number, log: Logger, failing: (error: unknown) => void): ActionJournal {
  const file = path.join(path.dirname(sessionsFile), ACTION_JOURNAL_FILE);
  return new ActionJournal(file, {
    capacity,
    warn: (message, fields) => log.warn(message, fields),
    onWriteError: (e) => {
      log.error('could not record action ids; an action re-sent after a bridge restart could run twice', {
        file,
        error: e instanceof Error ? e.message : String(e),
      });
      failing(e);
    },
    onRecovered: () => {
      log.info('action ids are recorded again', { file });
      failing(null);
    },
  });
}

/** The answer a re-sent action gets when the bridge died before its result came back. */
export function outcomeUnknown(actionId: string, action: ActionMessage['action']): ActionResultMessage {
  const error: ErrorInfo = errorInfo(
    'EXTENSION_DISCONNECTED',
    `The bridge restarted while "${action}" (${actionId}) was running, so whether it took effect is unknown; it was not run again. Take a new state and check whether it happened before repeating it (with a new action_id).`,
    'bridge',
    { reason: 'outcome_unknown_after_bridge_restart' },
  );
  return errorResult(actionId, action, error);
}

/** What is kept of an answer: status, tab, what happened (message, navigation, opened tab, small
 * results) and the error; never page state, the page's fetch/XHR calls, dialog texts or timings. */
function compactResult(r: ActionResultMessage): ActionResultMessage {
  let details: OutcomeDetails | null = null;
  if (r.outcome_details) {
    const d = r.outcome_details;
    details = { message: d.message };
    if (d.navigation_occurred !== undefined) details.navigation_occurred = d.navigation_occurred;
    if (d.new_tab_id !== undefined) details.new_tab_id = d.new_tab_id;
    if (d.settled !== undefined) details.settled = d.settled;
    if (d.dom_changed !== undefined) details.dom_changed = d.dom_changed;
    if (d.result !== undefined) {
      if (JSON.stringify(d.result).length <= MAX_KEPT_RESULT_CHARS) details.result = d.result;
      else details.message = `${d.message} (Its result was too large to keep across a bridge restart; take a new state to see the page.)`;
    }
  }
  const kept: ActionResultMessage = {
    type: 'action_result',
    original_action_id: r.original_action_id,
    status: r.status,
    outcome_details: details,
    new_simplified_state: null,
    error_info: r.error_info,
  };
  if (r.action !== undefined) kept.action = r.action;
  if (r.tab_id !== undefined) kept.tab_id = r.tab_id;
  return kept;
}

/** One journal line, validated: anything else is damage (null). Results must be valid action_results. */
function parseLine(text: string): Line | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const s = o['s'];
  if (typeof s !== 'string' || !/^[0-9a-f]{64}$/.test(s)) return null;
  if (o['k'] === 'end') return { k: 'end', s };
  const id = o['id'];
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) return null;
  if (o['k'] === 'start') {
    const a = o['a'];
    if (typeof a !== 'string' || !(ACTION_NAMES as readonly string[]).includes(a)) return null;
    return { k: 'start', s, id, a: a as ActionMessage['action'] };
  }
  if (o['k'] === 'done') {
    const checked = checkMessage(o['r'], 'bridge');
    if (!checked.ok || checked.value.type !== 'action_result' || checked.value.original_action_id !== id) return null;
    return { k: 'done', s, id, r: checked.value };
  }
  return null;
}
