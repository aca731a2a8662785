// Input JSON Schemas of the MCP tools, derived from the protocol (never hand-written copies):
// each property comes from schemas/v1/actions/<action>.json#/properties/params or, for what only
// MCP needs (tab_id, snapshot mode, subtree ref, ...), from schemas/mcp/tool-params.json. `npm run
// gen` inlines their $refs into schemas/generated/mcp-schemas.ts; this module picks and assembles.
//
// One deliberate derivation step: `not` and `dependentSchemas` are dropped from params objects.
// They carry the "exactly one target" rule (target.json#/$defs/not_exactly_one), whose inlined form
// is ~3 KB per element tool, and every tool definition is sent to the model on every request; some
// clients also reject combinators in tool schemas. The rule is still enforced: every call is
// validated against the full protocol schema before it leaves (AgentClient) and again by the
// bridge, and a violation comes back as an INVALID_MESSAGE tool error naming the field.
import { ACTION_PARAMS_SCHEMAS, type JsonSchema, MCP_TOOL_PARAMS } from '../../../schemas/generated/mcp-schemas';
import type { ActionName } from '../../../schemas/generated/registry';

export type { JsonSchema };

/** Where a tool's properties come from: (a subset of) an action's params. */
export interface ParamSource {
  action: ActionName;
  /** Only these properties (default: all). */
  pick?: readonly string[];
  /** All but these properties. */
  omit?: readonly string[];
  /** Whether the action's `required` list applies (default true). */
  keepRequired?: boolean;
}

export interface ToolSchemaSpec {
  /** Action params, in order; a property named by an earlier source is not taken again. */
  from: readonly ParamSource[];
  /** Keys of schemas/mcp/tool-params.json#/$defs. */
  extras: readonly string[];
  /** Required extras. */
  required?: readonly string[];
}

const DROPPED = new Set(['not', 'dependentSchemas']);
/**
 * Length and count bounds are left to the bridge too: every tool definition is in the model's
 * context on every request (tools/list was 10.6k tokens against Playwright MCP's 4.4k), and a call
 * beyond a bound comes back as INVALID_MESSAGE naming the field. Number ranges stay: they carry
 * meaning (viewport_expansion -1 = whole page). `title` of nested objects ("Point", "Target") is
 * generator metadata.
 */
const BOUNDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'title']);

/**
 * The first sentence of a protocol description: what the field is. The rest (defaults, edge cases,
 * error codes) is for implementers; the model learns edge cases from the error that names them.
 */
export function firstSentence(text: string): string {
  // A sentence ends at . ! or ? followed by a space and a capital, a quote or a bracket (not "e.g. b").
  const m = /^([\s\S]+?[.!?])\s+(?=[A-Z"`([])/.exec(text);
  return m?.[1] ?? text;
}

/**
 * The model-facing form of a protocol schema: drops `not` and `dependentSchemas` from params
 * objects (see above), length and count bounds and titles everywhere, and keeps the first sentence of every
 * property description. Nothing else changes: types, enums, ranges and required stay.
 */
export function forClients(schema: unknown, key?: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => forClients(s));
  if (typeof schema !== 'object' || schema === null)
    return key === 'description' && typeof schema === 'string' ? firstSentence(schema) : schema;
  const isParamsObject = 'properties' in schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (isParamsObject && DROPPED.has(k)) continue;
    if (BOUNDS.has(k)) continue;
    // Under `properties`, keys are property names, not keywords.
    out[k] =
      k === 'properties' && typeof v === 'object' && v !== null
        ? Object.fromEntries(Object.entries(v).map(([n, p]) => [n, forClients(p)]))
        : forClients(v, k);
  }
  return out;
}

export function actionParamsSchema(action: ActionName): JsonSchema {
  const s = ACTION_PARAMS_SCHEMAS[action];
  if (!s) throw new Error(`no params schema for action "${action}" in schemas/generated/mcp-schemas.ts; run npm run gen`);
  return s;
}

export function mcpParamSchema(key: string): JsonSchema {
  const s = MCP_TOOL_PARAMS[key];
  if (!s) throw new Error(`no MCP parameter "${key}" in schemas/mcp/tool-params.json; add it there and run npm run gen`);
  return s;
}

const propsOf = (s: JsonSchema) => (s['properties'] ?? {}) as Record<string, JsonSchema>;
const listOf = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Which source each property of a tool comes from (the schema test checks every one). */
export function propertySources(spec: ToolSchemaSpec): Map<string, { kind: 'action'; action: ActionName } | { kind: 'mcp'; key: string }> {
  const out = new Map<string, { kind: 'action'; action: ActionName } | { kind: 'mcp'; key: string }>();
  for (const src of spec.from) {
    for (const name of Object.keys(propsOf(actionParamsSchema(src.action)))) {
      if (src.pick && !src.pick.includes(name)) continue;
      if (src.omit?.includes(name)) continue;
      if (!out.has(name)) out.set(name, { kind: 'action', action: src.action });
    }
  }
  for (const key of spec.extras) out.set(key === 'tabs_action' ? 'action' : key, { kind: 'mcp', key });
  return out;
}

/** The tool's inputSchema: an object schema clients can use as is. */
export function buildInputSchema(spec: ToolSchemaSpec): { type: 'object'; [k: string]: unknown } {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const dependentRequired: Record<string, string[]> = {};
  for (const [name, source] of propertySources(spec)) {
    if (source.kind === 'mcp') {
      properties[name] = forClients(mcpParamSchema(source.key));
      if (spec.required?.includes(source.key)) required.add(name);
      continue;
    }
    const params = actionParamsSchema(source.action);
    properties[name] = forClients(propsOf(params)[name]);
    const src = spec.from.find((f) => f.action === source.action);
    if (src?.keepRequired !== false && listOf(params['required']).includes(name)) required.add(name);
    const deps = (params['dependentRequired'] ?? {}) as Record<string, string[]>;
    if (deps[name]) dependentRequired[name] = [...deps[name]];
  }
  const schema: { type: 'object'; [k: string]: unknown } = { type: 'object', additionalProperties: false, properties };
  if (required.size) schema['required'] = [...required];
  if (Object.keys(dependentRequired).length) schema['dependentRequired'] = dependentRequired;
  return schema;
}
