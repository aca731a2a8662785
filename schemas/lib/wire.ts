// Decoding and checking of wire messages, shared by the bridge, the extension and the clients.
// Every check uses the generated ajv standalone validators (no eval, so it runs in the MV3 worker).
import type { ErrorObject } from 'ajv';

import type { ComponentOrigin, ErrorInfo, ProtocolMessage } from '../generated/protocol';
import { MESSAGE_TYPES, MESSAGE_VALIDATORS, type MessageMap, type MessageType } from '../generated/registry';
import { errorInfo } from './errors';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo; inReplyTo: string | null };

const isMessageType = (t: unknown): t is MessageType => typeof t === 'string' && (MESSAGE_TYPES as readonly string[]).includes(t);

export { errorInfo };

/** Parses one text frame. Non-JSON is reported, never thrown. */
export function decodeMessage(text: string, origin: ComponentOrigin): Checked<ProtocolMessage> & { notJson?: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      notJson: true,
      inReplyTo: null,
      error: errorInfo('INVALID_MESSAGE', `Message is not JSON (${why}). Send one JSON object per WebSocket text frame.`, origin),
    };
  }
  return checkMessage(value, origin);
}

/** Validates a parsed value as a protocol message against its type's schema. */
export function checkMessage(value: unknown, origin: ComponentOrigin): Checked<ProtocolMessage> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      inReplyTo: null,
      error: errorInfo('INVALID_MESSAGE', 'Message must be a JSON object with a "type" field.', origin, { instance_path: '' }),
    };
  }
  const record = value as Record<string, unknown>;
  const type = record['type'];
  // The request an invalid message is about: its own id, the id it answers, else its type.
  const id = ['action_id', 'original_action_id', 'command_id', 'original_command_id']
    .map((k) => record[k])
    .find((v) => typeof v === 'string');
  const inReplyTo = typeof id === 'string' ? id : typeof type === 'string' ? type : null;
  if (!isMessageType(type)) {
    return {
      ok: false,
      inReplyTo,
      error: errorInfo(
        'INVALID_MESSAGE',
        `Unknown message type ${JSON.stringify(type)}. Use one of: ${MESSAGE_TYPES.join(', ')}.`,
        origin,
        { instance_path: '/type', allowed: [...MESSAGE_TYPES] },
      ),
    };
  }
  const validate = MESSAGE_VALIDATORS[type];
  if (!validate(value)) {
    const errors = validate.errors ?? [];
    return {
      ok: false,
      inReplyTo,
      error: errorInfo(
        'INVALID_MESSAGE',
        `Invalid ${type} message: ${describeAjvErrors(errors)}. Fix the field and resend; the connection stays open.`,
        origin,
        ajvDetails(errors),
      ),
    };
  }
  return { ok: true, value: value as ProtocolMessage };
}

/** Narrows a checked message by type. */
export function isMessage<T extends MessageType>(m: ProtocolMessage, type: T): m is MessageMap[T] {
  return m.type === type;
}

/**
 * The most useful ajv error first: an `if/then` branch failure says less than the error inside it,
 * and `oneOf` with a null alternative is noise when the object alternative failed deeper.
 */
export function primaryAjvError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const noise = new Set(['if', 'oneOf', 'anyOf']);
  const meaningful = errors.filter((e) => !noise.has(e.keyword) && !(e.keyword === 'type' && e.schemaPath.endsWith('/1/type')));
  const pool = meaningful.length ? meaningful : errors;
  // Deepest instance path first: it names the field to fix.
  return [...pool].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)[0];
}

export function describeAjvErrors(errors: readonly ErrorObject[]): string {
  const e = primaryAjvError(errors);
  if (!e) return 'schema validation failed';
  const where = e.instancePath || '(root)';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `${where} has unknown property "${String(params['additionalProperty'])}"`;
  if (e.keyword === 'required') return `${where} is missing required property "${String(params['missingProperty'])}"`;
  if (e.keyword === 'enum') return `${where} must be one of ${JSON.stringify(params['allowedValues'])}`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

export function ajvDetails(errors: readonly ErrorObject[]): Record<string, unknown> {
  const e = primaryAjvError(errors);
  return {
    instance_path: e?.instancePath ?? '',
    schema_path: e?.schemaPath ?? '',
    keyword: e?.keyword ?? '',
    errors: errors
      .slice(0, 8)
      .map((x) => ({ instance_path: x.instancePath, keyword: x.keyword, message: x.message ?? '', params: x.params })),
  };
}
