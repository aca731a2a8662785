// Seed 002's command format: one JSON command inside <tool_code>...</tool_code> per reply; a legacy
// ```json block counts only when the parsed object has a "tool" property. More than one command or
// invalid JSON is a System Error the agent can recover from.
export type Seed002Command =
  | { action: 'click'; id: number }
  | { action: 'type'; id: number; value: string }
  | { action: 'open_tab'; url: string }
  | { action: 'open_tool'; name: string }
  /** Not in seed 002 (it has no way to finish): the built-in loop's explicit end, see prompt.ts.
   * success false: the agent says it could not reach the goal (the task ends "not completed"). */
  | { action: 'done'; text: string; success: boolean };

export type ParseResult = { kind: 'command'; command: Seed002Command } | { kind: 'none' } | { kind: 'error'; message: string };

export const SEED002_ACTIONS = ['click', 'type', 'open_tab', 'open_tool'] as const;

const TOOL_CODE = /<tool_code>([\s\S]*?)<\/tool_code>/g;
const JSON_FENCE = /```json\s*([\s\S]*?)```/g;

function validate(obj: Record<string, unknown>): ParseResult {
  const action = obj['action'] ?? obj['tool'];
  const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
  // Models often quote numbers ("id": "12"); the id is still unambiguous.
  const idOf = (v: unknown): number | null =>
    isId(v) ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : null;
  switch (action) {
    case 'click': {
      const id = idOf(obj['id']);
      return id === null
        ? {
            kind: 'error',
            message: `"click" needs "id": the number of an element in the latest snapshot, e.g. {"action": "click", "id": 12}.`,
          }
        : { kind: 'command', command: { action, id } };
    }
    case 'type': {
      const id = idOf(obj['id']);
      const value = obj['value'] ?? obj['text'];
      if (id === null)
        return {
          kind: 'error',
          message: `"type" needs "id": the number of an input in the latest snapshot, e.g. {"action": "type", "id": 7, "value": "hello"}.`,
        };
      if (typeof value !== 'string') return { kind: 'error', message: `"type" needs "value": the text to type (a string).` };
      return { kind: 'command', command: { action, id, value } };
    }
    case 'open_tab': {
      const url = obj['url'];
      return typeof url === 'string' && url.trim()
        ? { kind: 'command', command: { action, url: url.trim() } }
        : { kind: 'error', message: `"open_tab" needs "url": the full URL including protocol.` };
    }
    case 'open_tool': {
      const name = obj['name'];
      return typeof name === 'string' && name.trim()
        ? { kind: 'command', command: { action, name } }
        : { kind: 'error', message: `"open_tool" needs "name": the name of a saved Tool.` };
    }
    case 'done': {
      const text = obj['text'] ?? obj['result'] ?? '';
      // Only an explicit false (or "false") says the goal was not reached; omitted, done means reached.
      const success = !(obj['success'] === false || obj['success'] === 'false');
      return { kind: 'command', command: { action, text: typeof text === 'string' ? text : JSON.stringify(text), success } };
    }
    default:
      return { kind: 'error', message: `Unknown action ${JSON.stringify(action)}. Available: ${SEED002_ACTIONS.join(', ')}.` };
  }
}

/** Finds the reply's one command. */
export function parseReply(reply: string): ParseResult {
  const found: { raw: string; legacy: boolean }[] = [];
  for (const m of reply.matchAll(TOOL_CODE)) found.push({ raw: m[1] ?? '', legacy: false });
  for (const m of reply.matchAll(JSON_FENCE)) {
    try {
      const v: unknown = JSON.parse(m[1] ?? '');
      if (v && typeof v === 'object' && !Array.isArray(v) && 'tool' in v) found.push({ raw: m[1] ?? '', legacy: true });
    } catch {
      // A ```json block that is not JSON is prose, not a command (only <tool_code> must parse).
    }
  }
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1)
    return {
      kind: 'error',
      message: `${found.length} commands in one response. Send exactly one command per response and wait for the DOM update.`,
    };
  const only = found[0] as { raw: string; legacy: boolean };
  let value: unknown;
  try {
    value = JSON.parse(only.raw.trim());
  } catch (e) {
    return {
      kind: 'error',
      message: `Invalid JSON in <tool_code> (${e instanceof Error ? e.message : String(e)}). Send one valid JSON object, e.g. <tool_code>{"action": "click", "id": 3}</tool_code>.`,
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { kind: 'error', message: 'The command must be a JSON object like {"action": "click", "id": 3}.' };
  return validate(value as Record<string, unknown>);
}
