/**
 * A NUL (or a lone surrogate) in any string a route takes — path parameter,
 * query parameter, body field at any depth — answers 400 problem+json and changes no data. The
 * cases come from the OpenAPI document, so a new route is covered without being listed here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import {
  dataFingerprint,
  fillPath,
  type JsonSchema,
  type Operation,
  operationKey,
  operations,
  seedWalkFixture,
  type WalkFixture,
} from './api-walk.test-kit.ts';
import { findUnstorableText } from './input-guard.ts';

const NUL = 'a\u0000b';

/** Dotted paths of every string a body schema accepts; array items as index 0. */
function stringLeaves(schema: JsonSchema, prefix: string[] = []): string[][] {
  if (schema.type === 'string') return [prefix];
  if (schema.type === 'array' && schema.items) return stringLeaves(schema.items, [...prefix, '0']);
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
    stringLeaves(child, [...prefix, key]),
  );
}

/** A copy of `body` with `value` at `path`, creating the objects and arrays on the way. */
function setAt(body: object, path: string[], value: unknown): object {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      node[key] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(path[index + 1] ?? '');
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
  return copy;
}

interface Case {
  label: string;
  url: string;
  payload?: object;
  /** The field the problem must name, e.g. `querystring.q`. */
  field: string;
}

function cases(op: Operation, f: WalkFixture): Case[] {
  const key = operationKey(op);
  const sample = op.body ? f.bodies[key] : undefined;
  const query = (extra: Record<string, string> = {}) => {
    const required = Object.fromEntries(
      op.query.filter((q) => q.required).map((q) => [q.name, f.requiredQuery[q.name] ?? '']),
    );
    const search = new URLSearchParams({ ...required, ...extra }).toString();
    return search ? `?${search}` : '';
  };
  const url = (values: Record<string, string>, extra?: Record<string, string>) =>
    `${fillPath(op.path, values)}${query(extra)}`;
  const withBody = sample ? { payload: sample } : {};
  return [
    ...op.pathParams.map((name) => ({
      label: `${key} path {${name}}`,
      url: url({ ...f.pathValues, [name]: NUL }),
      field: `params.${name}`,
      ...withBody,
    })),
    ...op.query
      .filter((q) => q.schema.type === 'string')
      .map((q) => ({
        label: `${key} query ${q.name}`,
        url: url(f.pathValues, { [q.name]: NUL }),
        field: `querystring.${q.name}`,
        ...withBody,
      })),
    ...(op.body && sample
      ? stringLeaves(op.body).map((path) => ({
          label: `${key} body ${path.join('.')}`,
          url: url(f.pathValues),
          payload: setAt(sample, path, NUL),
          field: ['body', ...path].join('.'),
        }))
      : []),
  ];
}

describe('text PostgreSQL cannot store', () => {
  let t: TestApp;
  let f: WalkFixture;
  beforeAll(async () => {
    t = await buildTestApp();
    f = await seedWalkFixture(t);
  });
  afterAll(() => t.close());

  it('has a sample body for every operation that takes one', () => {
    const missing = operations(t.app)
      .filter((op) => op.body && stringLeaves(op.body).length > 0 && !f.bodies[operationKey(op)])
      .map(operationKey);
    expect(missing).toEqual([]);
  });

  it('answers 400 problem+json naming the field for a NUL in any path, query or body string, changing nothing', async () => {
    const before = await dataFingerprint(t);
    const all = operations(t.app).flatMap((op) => cases(op, f).map((c) => ({ ...c, method: op.method })));
    // Every kind the probe found must be among the cases: ids, searches, names, patterns, titles.
    expect(all.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        'GET /api/companies/{companyId}/devices/{deviceId} path {deviceId}',
        'GET /api/companies/{companyId}/devices/by-eui/{devEui} path {devEui}',
        'GET /api/companies/{companyId}/units query q',
        'GET /api/companies/{companyId}/groups query q',
        'GET /api/companies/{companyId}/gateways query q',
        'POST /api/companies/{companyId}/units body name',
        'POST /api/companies/{companyId}/units/bulk body pattern',
        'PATCH /api/companies/{companyId}/plans/{planId} body name',
        'POST /api/companies/{companyId}/events body note',
        'PATCH /api/companies/{companyId}/gateways/{gatewayId} body name',
      ]),
    );
    const wrong: string[] = [];
    for (const c of all) {
      const res = await t.call(c.method, c.url, c.payload);
      const problem = res.headers['content-type']?.toString().startsWith('application/problem+json');
      const field = problem ? (res.json() as { errors?: { field: string }[] }).errors?.[0]?.field : undefined;
      if (res.statusCode !== 400 || field !== c.field) wrong.push(`${c.label}: ${res.statusCode} ${field}`);
    }
    expect(wrong).toEqual([]);
    expect(await dataFingerprint(t)).toEqual(before);
  });

  it('refuses a lone surrogate the same way', async () => {
    const res = await t.call('POST', `/api/companies/${f.companyId}/units`, { name: 'Raum \ud800' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'body.name', message: expect.any(String) }]);
  });
});

describe('findUnstorableText', () => {
  it('finds NUL in nested values and keys, and passes text with paired surrogates', () => {
    expect(findUnstorableText({ a: [{ b: 'x' }, { c: NUL }] }, 'body')).toBe('body.a.1.c');
    expect(findUnstorableText({ [NUL]: 1 }, 'body')).toBe('body');
    expect(findUnstorableText({ name: 'Raum 🔥 ä', n: 1, ok: true, none: null }, 'body')).toBeUndefined();
    expect(findUnstorableText(Buffer.from([0, 0, 0]), 'body')).toBeUndefined();
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = NUL;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep, 'body')).toMatch(/^body(\.0)+$/);
  });
});
