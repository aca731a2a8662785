// Input JSON Schemas of the MCP tools, derived from the protocol (never hand-written copies):
// each property comes from schemas/v1/actions/<action>.json#/properties/params or, for what only
// MCP needs (tab_id, snapshot mode, subtree ref, ...), from schemas/mcp/tool-params.json. `npm run
// gen` inlines their $refs into schemas/generated/mcp-schemas.ts; this module picks and assembles.
//
// One deliberate derivation step: `not` and `dependentSchemas` are dropped from params objects.
// They carry the "exactly one target" rule (target.json#/$defs/not_exactly_one), whose inlined form
// is ~3 KB per element tool, and every tool definition is sent to the model on every request; some
// clients also reject combinators in tool schemas. The rule is still enforced: every call is
// checked (tools.ts runTool, then the full protocol schema in call()) before it leaves, and again by
// the bridge; a violation comes back as one INVALID_MESSAGE tool error naming the argument.
//
// Descriptions are model-facing (schemas/mcp/descriptions.json overrides, else the protocol's first
// sentence; none below the top level), and element_id is listed as `ref`, the name the snapshot
// prints: tools/list is sent with every model request, so it is held to a token budget
// (test/mcp/tool-calls.spec.ts).
import { ACTION_PARAMS_SCHEMAS, type JsonSchema, MCP_PARAM_DESCRIPTIONS, MCP_TOOL_PARAMS } from '../../../schemas/generated/mcp-schemas';
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
 * context on every request, and a call beyond a bound comes back as INVALID_MESSAGE naming the
 * field. Number ranges stay: they carry meaning (viewport_expansion -1 = whole page). `title` of
 * nested objects ("Point", "Target") is generator metadata.
 */
const BOUNDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'title']);

/**
 * The protocol's element_id is shown to models as `ref`: the snapshot prints [ref=e12], and
 * Playwright MCP's tools called it ref too (0.0.83 calls it target; tools.ts accepts that as well).
 */
export const RENAMED: Readonly<Record<string, string>> = { element_id: 'ref' };
/** browser_use's [N] index target: our snapshot shows refs, never indices. */
const HIDDEN = new Set(['index']);

/**
 * The first sentence of a protocol description: what the field is. The rest (defaults, edge cases,
 * error codes) is for implementers; the model learns edge cases from the error that names them.
 */
export function firstSentence(text: string): string {
  // A sentence ends at . ! or ? followed by a space and a capital, a quote or a bracket (not "e.g. b").
  const m = /^([\s\S]+?[.!?])\s+(?=[A-Z"`([])/.exec(text);
  return m?.[1] ?? text;
}

/** The model-facing description of a top-level tool parameter: schemas/mcp/descriptions.json, else the first sentence. */
export function describeParam(tool: string | undefined, name: string, original: unknown): string | null {
  const own = tool === undefined ? undefined : MCP_PARAM_DESCRIPTIONS[`${tool}.${name}`];
  if (own !== undefined) return own;
  const shared = MCP_PARAM_DESCRIPTIONS[name];
  if (shared !== undefined) return shared;
  return typeof original === 'string' ? firstSentence(original) : null;
}

/**
 * The model-facing form of a protocol schema: drops `not` and `dependentSchemas` (see above),
 * length and count bounds, titles, a `type` an `enum` already implies, and every description below
 * the top level (a nested point's "x" needs none); shows element_id as ref and leaves out index.
 * Types, enums, ranges and required stay.
 */
export function forClients(schema: unknown, nested = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => forClients(s, nested));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const hasEnum = 'enum' in schema;
  for (const [k, v] of Object.entries(schema)) {
    if (DROPPED.has(k) || BOUNDS.has(k)) continue;
    if (k === 'description' && nested) continue;
    if (k === 'type' && hasEnum) continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) {
      // Under `properties`, keys are property names, not keywords.
      out[k] = Object.fromEntries(
        Object.entries(v)
          .filter(([n]) => !HIDDEN.has(n))
          .map(([n, p]) => [RENAMED[n] ?? n, forClients(p, true)]),
      );
    } else if (k === 'required' && Array.isArray(v)) out[k] = v.map((n: string) => RENAMED[n] ?? n);
    else if (k === 'dependentRequired' && typeof v === 'object' && v !== null)
      out[k] = Object.fromEntries(Object.entries(v).map(([n, deps]) => [RENAMED[n] ?? n, deps]));
    else out[k] = forClients(v, true);
  }
  return out;
}

/** A top-level parameter in model-facing form: its own description from describeParam, the rest forClients. */
export function paramForClients(tool: string | undefined, name: string, schema: JsonSchema): unknown {
  const body = forClients(schema, true) as Record<string, unknown>;
  const description = describeParam(tool, name, schema['description']);
  return description === null ? body : { ...body, description };
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

type Source = { kind: 'action'; action: ActionName; param: string } | { kind: 'mcp'; key: string };

/** The property name an MCP-only parameter (schemas/mcp/tool-params.json#/$defs key) is listed under. */
export const EXTRA_NAMES: Readonly<Record<string, string>> = { tabs_action: 'action' };

/** Which source each listed property of a tool comes from (the schema test checks every one), by listed name. */
export function propertySources(spec: ToolSchemaSpec): Map<string, Source> {
  const out = new Map<string, Source>();
  for (const src of spec.from) {
    for (const param of Object.keys(propsOf(actionParamsSchema(src.action)))) {
      if (src.pick && !src.pick.includes(param)) continue;
      if (src.omit?.includes(param) || HIDDEN.has(param)) continue;
      const name = RENAMED[param] ?? param;
      if (!out.has(name)) out.set(name, { kind: 'action', action: src.action, param });
    }
  }
  for (const key of spec.extras) out.set(EXTRA_NAMES[key] ?? key, { kind: 'mcp', key });
  return out;
}

/**
 * browser_fill_form's items are fill params plus `element` and `type` (Playwright MCP's field kinds:
 * checkboxes, radios and selects set by the same call), from schemas/mcp/tool-params.json.
 */
function withFieldExtras(fields: unknown): unknown {
  const f = fields as { items?: { properties?: Record<string, unknown> } };
  if (!f.items?.properties) return fields;
  const extra = { element: forClients(mcpParamSchema('element'), true), type: forClients(mcpParamSchema('field_type'), true) };
  return { ...f, items: { ...f.items, properties: { ...f.items.properties, ...extra } } };
}

/** The tool's inputSchema: an object schema clients can use as is. */
export function buildInputSchema(spec: ToolSchemaSpec, tool?: string): { type: 'object'; [k: string]: unknown } {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const dependentRequired: Record<string, string[]> = {};
  for (const [name, source] of propertySources(spec)) {
    if (source.kind === 'mcp') {
      properties[name] = paramForClients(tool, name, mcpParamSchema(source.key));
      if (source.key === 'fields') properties[name] = withFieldExtras(properties[name]);
      if (spec.required?.includes(source.key)) required.add(name);
      continue;
    }
    const params = actionParamsSchema(source.action);
    properties[name] = paramForClients(tool, name, propsOf(params)[source.param] ?? {});
    const src = spec.from.find((f) => f.action === source.action);
    if (src?.keepRequired !== false && listOf(params['required']).includes(source.param)) required.add(name);
    const deps = (params['dependentRequired'] ?? {}) as Record<string, string[]>;
    const dep = deps[source.param];
    if (dep) dependentRequired[name] = dep.map((d) => RENAMED[d] ?? d);
  }
  const schema: { type: 'object'; [k: string]: unknown } = { type: 'object', additionalProperties: false, properties };
  if (required.size) schema['required'] = [...required];
  if (Object.keys(dependentRequired).length) schema['dependentRequired'] = dependentRequired;
  return schema;
}
