// A scripted OpenAI-compatible chat server on 127.0.0.1, in place of a paid model (TEAM.md). Each
// request is answered by the script from the conversation so far; every request is recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMsg {
  role: string;
  content: string;
}

/** May answer later (a slow model): return a Promise. */
export type Script = (messages: ChatMsg[], call: number) => string | Promise<string>;

export class ScriptedLlm {
  private server!: http.Server;
  readonly requests: { model: string; messages: ChatMsg[]; authorization: string | undefined }[] = [];
  baseUrl = '';

  constructor(private script: Script) {}

  setScript(script: Script): void {
    this.script = script;
    this.requests.length = 0;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404).end('{"error":"not found"}');
          return;
        }
        const parsed = JSON.parse(body) as { model: string; messages: ChatMsg[] };
        this.requests.push({ model: parsed.model, messages: parsed.messages, authorization: req.headers.authorization });
        Promise.resolve()
          .then(() => this.script(parsed.messages, this.requests.length))
          .then(
            (content) => {
              if (res.destroyed) return; // the client gave up (aborted) meanwhile
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion', model: parsed.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
            },
            (e: unknown) => {
              if (!res.destroyed) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e) }));
            },
          );
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** The session keyword the system prompt asks every reply to end with. */
export function keywordOf(messages: ChatMsg[]): string {
  const m = /End EVERY response with this exact keyword: (\[END:[^\]]+\])/.exec(messages[0]?.content ?? '');
  return m?.[1] ?? '';
}

/** The id of the element line in the latest observation whose tag and text/label match. */
export function idOf(observation: string, tag: string, text: string): number {
  for (const line of observation.split('\n')) {
    if (!line.startsWith(`<${tag} `)) continue;
    if (!line.includes(`label="${text}"`) && !line.includes(`>${text}</`)) continue;
    const m = /id="(\d+)"/.exec(line);
    if (m?.[1]) return Number(m[1]);
  }
  throw new Error(`no <${tag}> "${text}" in the observation:\n${observation}`);
}
