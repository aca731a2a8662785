// Argument errors in words. A model that sent a wrong argument needs to know which one and what is
// expected ("browser_click: `ref` is required (the ref of the element from the last snapshot, e.g.
// e12)"), not a JSON pointer and a schema keyword ("/params must NOT be valid"). Two checks, both
// before anything reaches the bridge: the tool's listed inputSchema (unknown arguments, types,
// enums, ranges, required), walked here; then the action's protocol schema (ajv, generated), whose
// errors are put into the same words.
import type { ErrorObject } from 'ajv';

import { RENAMED } from './tool-schemas';

type Schema = Record<string, unknown>;

const list = (xs: readonly unknown[]) => xs.map((x) => String(x)).join(', ');
const shown = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 59)}…` : s;
};

/** What a schema expects, in words: "an integer from 1 to 3", "one of left, right, middle". */
export function expected(s: Schema): string {
  if (Array.isArray(s['enum'])) return `one of ${list(s['enum'])}`;
  const type = s['type'];
  const min = typeof s['minimum'] === 'number' ? s['minimum'] : undefined;
  const max = typeof s['maximum'] === 'number' ? s['maximum'] : undefined;
  const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : '';
  if (type === 'integer') return `an integer${range}`;
  if (type === 'number') return `a number${range}`;
  if (type === 'boolean') return 'true or false';
  if (type === 'string') return 'a string';
  if (type === 'array') return `a list${s['items'] && typeof s['items'] === 'object' ? ` of ${expected(s['items'] as Schema)}` : ''}`;
  if (type === 'object') {
    const props = Object.keys((s['properties'] ?? {}) as Schema);
    return props.length ? `an object with ${list(props)}` : 'an object';
  }
  return 'a valid value';
}

const typeOk = (s: Schema, v: unknown): boolean => {
  switch (s['type']) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return true;
  }
};

/** The argument's own words: its description, else what it expects. */
const hint = (s: Schema | undefined) => (typeof s?.['description'] === 'string' ? s['description'] : s ? expected(s) : '');

/**
 * The first problem of `value` against a listed inputSchema (the model-facing one), in words, or null.
 * `at` is the argument's name as the model wrote it (`to.ref`, `fields[1].value`).
 */
export function checkAgainst(schema: Schema, value: unknown, at = ''): string | null {
  const name = at || 'the arguments';
  if (Array.isArray(schema['enum'])) {
    return schema['enum'].includes(value) ? null : `\`${name}\` must be one of ${list(schema['enum'])} (got ${shown(value)})`;
  }
  if (!typeOk(schema, value)) return `\`${name}\` must be ${expected(schema)} (got ${shown(value)})`;
  if (typeof value === 'number') {
    const min = schema['minimum'];
    const max = schema['maximum'];
    if ((typeof min === 'number' && value < min) || (typeof max === 'number' && value > max))
      return `\`${name}\` must be ${expected(schema)} (got ${shown(value)})`;
  }
  if (Array.isArray(value) && schema['items'] && typeof schema['items'] === 'object') {
    for (const [i, item] of value.entries()) {
      const e = checkAgainst(schema['items'] as Schema, item, `${name}[${i}]`);
      if (e) return e;
    }
  }
  if (schema['type'] === 'object' && typeof value === 'object' && value !== null) {
    const props = (schema['properties'] ?? {}) as Record<string, Schema>;
    const obj = value as Record<string, unknown>;
    const prefix = at ? `${at}.` : '';
    for (const key of Object.keys(obj)) {
      if (obj[key] === undefined) continue;
      if (!(key in props) && schema['additionalProperties'] === false)
        return `\`${prefix}${key}\` is not an argument${at ? ` of \`${at}\`` : ''}; it takes ${list(Object.keys(props).map((k) => `\`${k}\``))}`;
      const sub = props[key];
      if (sub) {
        const e = checkAgainst(sub, obj[key], `${prefix}${key}`);
        if (e) return e;
      }
    }
    for (const req of Array.isArray(schema['required']) ? (schema['required'] as string[]) : [])
      if (obj[req] === undefined) {
        const h = hint(props[req]);
        return `\`${prefix}${req}\` is required${h ? ` (${h})` : ''}`;
      }
    const deps = (schema['dependentRequired'] ?? {}) as Record<string, string[]>;
    for (const [key, needs] of Object.entries(deps)) {
      if (obj[key] === undefined) continue;
      const missing = needs.find((n) => obj[n] === undefined);
      if (missing) return `\`${prefix}${key}\` needs \`${prefix}${missing}\` too (${hint(props[missing])})`;
    }
  }
  return null;
}

/** A protocol field as the model names it: /params/to/element_id -> to.ref, /params/fields/0/value -> fields[0].value. */
export function argName(instancePath: string): string {
  const parts = instancePath
    .replace(/^\/params/, '')
    .split('/')
    .filter(Boolean);
  let out = '';
  for (const p of parts) {
    const name = RENAMED[p] ?? p;
    out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${name}` : name;
  }
  return out;
}

/** The protocol validator's (ajv) first meaningful error, in the words of checkAgainst. */
export function describeProtocolErrors(errors: readonly ErrorObject[] | null | undefined, targetHelp: string): string {
  const all = errors ?? [];
  // `not` carries the exactly-one-target rule (target.json#/$defs/not_exactly_one).
  const e = all.find((x) => x.keyword !== 'not' && x.keyword !== 'if') ?? all[0];
  if (!e) return 'the arguments do not fit the protocol schema';
  const name = argName(e.instancePath);
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'not') return `give exactly one target: ${targetHelp}`;
  if (e.keyword === 'additionalProperties') {
    const extra = String(p['additionalProperty']);
    return `\`${name ? `${name}.` : ''}${RENAMED[extra] ?? extra}\` is not an argument here`;
  }
  if (e.keyword === 'required') {
    const missing = String(p['missingProperty']);
    return `\`${name ? `${name}.` : ''}${RENAMED[missing] ?? missing}\` is required`;
  }
  if (e.keyword === 'maxLength') return `\`${name}\` is too long: at most ${String(p['limit'])} characters`;
  if (e.keyword === 'minLength') return `\`${name}\` is too short: at least ${String(p['limit'])} character(s)`;
  if (e.keyword === 'maxItems') return `\`${name}\` has too many entries: at most ${String(p['limit'])}`;
  if (e.keyword === 'minItems') return `\`${name}\` needs at least ${String(p['limit'])} entr${p['limit'] === 1 ? 'y' : 'ies'}`;
  if (e.keyword === 'enum') return `\`${name}\` must be one of ${list((p['allowedValues'] as unknown[]) ?? [])}`;
  return `\`${name || 'the arguments'}\` ${e.message ?? 'is not valid'}`;
}
