// The seed 002 agent's view of the scripted LLM: the one scripted OpenAI-compatible server lives in
// test/harness/scripted-llm.ts (Node side) and python-shim-spec/tests/scripted_llm.py; here are the
// readers of the prompts the seed 002 agent builds, for the scripts that answer them.
import type { ChatMsg } from '../harness/scripted-llm';

export { type ChatMsg, type Script, ScriptedLlm } from '../harness/scripted-llm';

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
