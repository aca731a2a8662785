// Minimal client for any OpenAI-compatible chat endpoint (POST {base}/chat/completions): OpenAI,
// Ollama, vLLM, LM Studio, llama.cpp server, OpenRouter. Only what the seed 002 loop needs.
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ChatFn = (messages: readonly ChatMessage[], signal?: AbortSignal) => Promise<string>;

export class LlmError extends Error {
  override name = 'LlmError';
}

export interface OpenAiChatOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  temperature?: number;
  timeoutMs?: number;
}

export function openAiChat(o: OpenAiChatOptions): ChatFn {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async (messages, signal) => {
    const timeout = AbortSignal.timeout(o.timeoutMs ?? 120_000);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify({ model: o.model, messages, temperature: o.temperature ?? 0 }),
        signal: combined,
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new LlmError(`Cannot reach the LLM at ${url}: ${e instanceof Error ? e.message : String(e)}. Check --base-url.`);
    }
    const body = await res.text();
    if (!res.ok) {
      const hint =
        res.status === 401 || res.status === 403
          ? ' Check the API key (env OPENAI_API_KEY).'
          : res.status === 404
            ? ' Check --base-url and --model.'
            : '';
      throw new LlmError(`The LLM at ${url} answered HTTP ${res.status}: ${body.slice(0, 300)}.${hint}`);
    }
    let content: unknown;
    try {
      content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    } catch {
      throw new LlmError(`The LLM at ${url} did not answer JSON: ${body.slice(0, 200)}`);
    }
    if (typeof content !== 'string') throw new LlmError(`The LLM at ${url} answered without choices[0].message.content.`);
    return content;
  };
}
