// Schema conformance: every schema compiles in ajv strict mode; per message a fixture folder
// (valid, minimal, missing-required, extra-property, wrong-type) asserting the exact ajv errors,
// through both a freshly compiled validator and the generated standalone one that ships.
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { ACTION_NAMES, MESSAGE_TYPES, MESSAGE_VALIDATORS, type MessageType } from '../../schemas/generated/registry';
import { createProtocolAjv, loadSchemas } from '../../scripts/schema-loader.mjs';
import { REPO_ROOT } from '../harness/browser';

const SCHEMA_DIR = path.join(REPO_ROOT, 'schemas', 'v1');
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'schemas');
const BASE = 'https://browser-use-ext.dev/schemas/v1/';
const schemas = loadSchemas(SCHEMA_DIR);
const ajv = createProtocolAjv();
for (const s of schemas) ajv.addSchema(s.schema);

type Expected = { instancePath: string; keyword: string; params: Record<string, unknown> };
const strip = (errors: readonly { instancePath: string; keyword: string; params: object }[] | null | undefined) =>
  (errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params }));

describe('schemas', () => {
  it('every file compiles in ajv strict mode (draft 2020-12)', () => {
    expect(schemas.length).to.be.greaterThan(20);
    for (const s of schemas) {
      expect(s.schema.$schema, s.rel).to.equal('https://json-schema.org/draft/2020-12/schema');
      expect(s.schema.$id, s.rel).to.equal(BASE + s.rel);
      expect(() => ajv.getSchema(s.schema.$id), s.rel).not.to.throw();
      expect(ajv.getSchema(s.schema.$id), s.rel).to.be.a('function');
    }
  });

  it('every object has a description on each property and additionalProperties declared', () => {
    const problems: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      if (o['type'] === 'object' && !('additionalProperties' in o)) problems.push(`${where}: no additionalProperties`);
      if (o['properties'] && typeof o['properties'] === 'object') {
        for (const [k, v] of Object.entries(o['properties'] as Record<string, Record<string, unknown>>)) {
          if (typeof v['description'] !== 'string' || !v['description']) problems.push(`${where}/properties/${k}: no description`);
        }
      }
      // if/then branches restate properties already declared (and described) at the top level.
      for (const [k, v] of Object.entries(o)) if (k !== 'if' && k !== 'then' && k !== 'else') walk(v, `${where}/${k}`);
    };
    for (const s of schemas) walk(s.schema, s.rel);
    expect(problems).to.deep.equal([]);
  });

  it('every message has a title, a const type discriminator and declared senders', () => {
    const messages = schemas.filter((s) => s.rel.startsWith('messages/'));
    expect(messages.map((m) => m.schema.properties.type.const).sort()).to.deep.equal([...MESSAGE_TYPES].sort());
    for (const m of messages) {
      expect(m.schema.title, m.rel).to.match(/Message$/);
      expect(m.schema.required, m.rel).to.include('type');
      expect(m.rel).to.equal(`messages/${m.schema.properties.type.const}.json`);
      expect(m.schema['x-senders'], m.rel).to.be.an('array').that.is.not.empty;
    }
    const entry = schemas.find((s) => s.rel === 'protocol.json');
    expect(entry?.schema.oneOf.map((r: { $ref: string }) => r.$ref).sort()).to.deep.equal(messages.map((m) => m.rel).sort());
  });

  it('the action-name enum, the action folder and the action message agree', () => {
    const files = schemas.filter((s) => s.rel.startsWith('actions/')).map((s) => s.schema.properties.name.const as string);
    const nameEnum = schemas.find((s) => s.rel === 'defs/action_name.json')?.schema.enum as string[];
    expect([...nameEnum].sort()).to.deep.equal([...files].sort());
    expect([...ACTION_NAMES].sort()).to.deep.equal([...files].sort());
    const action = schemas.find((s) => s.rel === 'messages/action.json')?.schema;
    const branches = (
      action.allOf as { if: { properties: { action: { const: string } } }; then: { properties: { params: { $ref: string } } } }[]
    ).map((b) => [b.if.properties.action.const, b.then.properties.params.$ref]);
    expect(branches.map((b) => b[0]).sort()).to.deep.equal([...files].sort());
    for (const [name, ref] of branches) expect(ref).to.equal(`../actions/${name}.json#/properties/params`);
    const anyOf = (action.properties.params.anyOf as { $ref: string }[]).map((r) => r.$ref).sort();
    expect(anyOf).to.deep.equal(files.map((n) => `../actions/${n}.json#/properties/params`).sort());
  });

  for (const type of fs.readdirSync(FIXTURES).sort()) {
    describe(`${type} fixtures`, () => {
      const compiled = ajv.getSchema(`${BASE}messages/${type}.json`);
      const standalone = MESSAGE_VALIDATORS[type as MessageType];
      for (const kind of ['valid', 'minimal', 'missing-required', 'extra-property', 'wrong-type']) {
        it(kind, () => {
          const fixture = JSON.parse(fs.readFileSync(path.join(FIXTURES, type, `${kind}.json`), 'utf8')) as {
            message: unknown;
            errors?: Expected[];
          };
          for (const [label, validate] of [
            ['compiled', compiled],
            ['standalone', standalone],
          ] as const) {
            expect(validate, `${label} validator for ${type}`).to.be.a('function');
            const ok = validate!(fixture.message);
            if (kind === 'valid' || kind === 'minimal') {
              expect(strip(validate!.errors), label).to.deep.equal([]);
              expect(ok, label).to.equal(true);
            } else {
              expect(ok, label).to.equal(false);
              expect(strip(validate!.errors), label).to.deep.equal(fixture.errors);
            }
          }
        });
      }
    });
  }

  describe('seed 004 examples validate as written', () => {
    const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'seed-004');
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      it(file, () => {
        const { validates_as, message } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
          validates_as: string;
          message: unknown;
        };
        const id = validates_as === 'simplified_state' ? `${BASE}defs/simplified_state.json` : `${BASE}messages/${validates_as}.json`;
        const validate = ajv.getSchema(id);
        expect(validate!(message), JSON.stringify(validate!.errors)).to.equal(true);
      });
    }
  });
});
