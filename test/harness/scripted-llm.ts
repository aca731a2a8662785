// The Node side of the one scripted OpenAI-compatible chat server (python-shim-spec/tests/scripted_llm.py,
// which says why it is Python): started as a subprocess on 127.0.0.1 with a plain python3, it prints
// its base URL. Either it runs a built-in script ('shop' / 'shop013': shops on the fixture shop, with the
// /control /release /log test controls), or it asks this process for every reply over a loopback
// HTTP callback, so Node scripts stay `(messages, call) => string` functions. Every request is
// recorded here (`requests`).
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

import { SHIM_DIR, stdlibPython } from './python';

export interface ChatMsg {
  role: string;
  content: string;
}

/** May answer later (a slow model): return a Promise. Throwing answers the client with HTTP 500. */
export type Script = (messages: ChatMsg[], call: number) => string | Promise<string>;

/** Scripts built into the server (see scripted_llm.py): 'shop' for classic browser_use 0.1, 'shop013' for 0.13. */
export type BuiltinScript = 'shop' | 'shop013';

export interface ScriptedRequest {
  model: string;
  messages: ChatMsg[];
  authorization: string | undefined;
}

/** One agent step the server answered (GET /log): the page it was on and the goal it gave. */
export interface Decision {
  url: string;
  goal: string;
  redirected?: boolean;
  /** 'shop013' only: the page state the model was shown at that step. */
  state?: string;
}

const SERVER = path.join(SHIM_DIR, 'tests', 'scripted_llm.py');

export class ScriptedLlm {
  private proc: ChildProcess | undefined;
  private callback: http.Server | undefined;
  readonly requests: ScriptedRequest[] = [];
  baseUrl = '';

  constructor(private script: Script | BuiltinScript) {}

  /** A new callback script (not for a built-in one); forgets the requests so far. */
  setScript(script: Script): void {
    if (typeof this.script === 'string')
      throw new Error(`setScript: this server runs the built-in '${this.script}' script; start one with a function`);
    this.script = script;
    this.requests.length = 0;
  }

  async start(): Promise<this> {
    const args = [SERVER, '--exit-with-stdin'];
    if (typeof this.script === 'string') {
      args.push('--script', this.script);
    } else {
      this.callback = http.createServer((req, res) => this.answer(req, res));
      await new Promise<void>((r) => this.callback!.listen(0, '127.0.0.1', () => r()));
      args.push('--script', 'callback', '--callback', `http://127.0.0.1:${(this.callback.address() as AddressInfo).port}/`);
    }
    const proc = spawn(stdlibPython(), args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.proc = proc;
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: proc.stdout! }).once('line', resolve);
      proc.once('error', reject);
      proc.once('exit', (c) => reject(new Error(`the scripted LLM server (${SERVER}) exited with ${c} before it printed its URL`)));
    });
    this.baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
    return this;
  }

  /** The server asks for one reply: {model, messages, authorization} -> {content} | {error}. */
  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; messages: ChatMsg[]; authorization: string | null };
      this.requests.push({ model: parsed.model, messages: parsed.messages, authorization: parsed.authorization ?? undefined });
      const script = this.script as Script;
      Promise.resolve()
        .then(() => script(parsed.messages, this.requests.length))
        .then(
          (content) => ({ content }),
          (e: unknown) => ({ error: String(e) }),
        )
        .then((reply) => {
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        })
        // A reply that cannot be written (the agent hung up mid-write): end the socket so the agent sees
        // the failure, instead of an unhandled rejection that ends the whole test run.
        .catch((e: unknown) => res.destroy(e instanceof Error ? e : new Error(String(e))));
    });
  }

  private root(): string {
    return this.baseUrl.replace(/\/v1$/, '');
  }

  /** Hold the next agent request whose page URL contains urlPart, until release(). */
  async holdOn(urlPart: string): Promise<void> {
    await fetch(this.root() + '/control', {
      method: 'POST',
      body: JSON.stringify({ hold_on: urlPart }),
      headers: { 'content-type': 'application/json' },
    });
  }

  /** Answer the held request: 'shop' with a harmless scroll (its conversation is stale), 'shop013' with the
   * step it decides (a slow model). */
  async release(): Promise<void> {
    await fetch(this.root() + '/release', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  }

  /** The agent steps answered so far. */
  async log(): Promise<Decision[]> {
    return (await (await fetch(this.root() + '/log')).json()) as Decision[];
  }

  async waitHeld(timeout = 90_000): Promise<void> {
    const end = Date.now() + timeout;
    while (Date.now() < end) {
      if ((await this.log()).some((e) => e.goal === 'held')) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the agent never reached the held step');
  }

  async close(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill();
      await exited;
    }
    if (this.callback) {
      this.callback.closeAllConnections();
      await new Promise<void>((r) => this.callback!.close(() => r()));
    }
  }
}

// ---- Scripts for browser_use 0.1 agents (`python -m browser_use_ext serve`) ------------------------
// With a callback script the server hands the reply string to browser_use as the AgentOutput tool
// call's arguments: a step is that JSON. serve's start-up check asks the model a question first.

/** serve's start-up check ("What is the capital of France?"), answered as the built-in scripts do. */
export function startupCheck(messages: ChatMsg[]): string | null {
  const last = messages[messages.length - 1]?.content;
  return typeof last === 'string' && last.includes('What is the capital of France') ? 'Paris' : null;
}

/** One browser_use 0.1 step: its brain and actions, e.g. [{ done: { text, success: false } }]. */
export function browserUseStep(nextGoal: string, actions: Record<string, unknown>[]): string {
  return JSON.stringify({ current_state: { evaluation_previous_goal: 'Unknown', memory: '', next_goal: nextGoal }, action: actions });
}

/**
 * A browser_use 0.1 agent's steps in order (a function may wait: a slow model); the last one repeats.
 * The start-up check is answered; every other request counts as an agent step.
 */
export function browserUseScript(steps: (string | ((messages: ChatMsg[]) => string | Promise<string>))[]): Script {
  let next = 0;
  return async (messages) => {
    const check = startupCheck(messages);
    if (check !== null) return check;
    const step = steps[Math.min(next++, steps.length - 1)];
    if (step === undefined) throw new Error('browserUseScript: no steps');
    return typeof step === 'string' ? step : step(messages);
  };
}
