/**
 * Property tests of the contract's boundary: arbitrary input gets a clean
 * ApiError (never a throw), params generated from each method's published
 * JSON Schema are accepted by the zod validation and survive a JSON round
 * trip unchanged, and breaking one of them is refused with a message that
 * names what is wrong.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiMethod } from './api.js';
import { methodJsonSchemas, type JsonSchema } from './jsonSchema.js';
import { API_METHODS, parseClientMessage, validateParams } from './validate.js';

const CODES = ['EBADMSG', 'ENOSYS', 'EINVAL'];

function expectCleanError(r: ReturnType<typeof parseClientMessage>): void {
  if (r.ok) return;
  expect(CODES).toContain(r.error.code);
  expect(typeof r.error.message).toBe('string');
  expect(r.error.message.length).toBeGreaterThan(0);
}

/**
 * A value generator for the JSON Schema subset the contract publishes
 * (objects, arrays, strings with lengths and patterns, numbers with bounds,
 * enums). Unknown keywords fail loudly so a new schema feature is noticed.
 */
function fromSchema(s: JsonSchema): fc.Arbitrary<unknown> {
  const known = new Set([
    '$schema',
    'type',
    'properties',
    'required',
    'additionalProperties',
    'propertyNames',
    'items',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'pattern',
    'enum',
    'description',
  ]);
  for (const k of Object.keys(s)) if (!known.has(k)) throw new Error(`schema keyword ${k}`);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  switch (s.type) {
    case 'string': {
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
      const maxLength = typeof s.maxLength === 'number' ? Math.min(s.maxLength, 40) : 40;
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      return fc.string({ minLength, maxLength, unit: 'grapheme' });
    }
    case 'number':
    case 'integer': {
      const min = typeof s.minimum === 'number' ? s.minimum : -1e9;
      const max = typeof s.maximum === 'number' ? s.maximum : 1e9;
      return s.type === 'integer'
        ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
        : fc
            .double({ min, max, noNaN: true, noDefaultInfinity: true })
            .map((x) => (Object.is(x, -0) ? 0 : x));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fromSchema(s.items as JsonSchema), { maxLength: 4 });
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((s.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = fromSchema(v);
      const fixed = fc.record(record, {
        requiredKeys: Object.keys(props).filter((k) => required.has(k)),
      });
      if (typeof s.additionalProperties !== 'object') return fixed;
      // A map (e.g. env): keys from propertyNames, values from additionalProperties.
      const keys = s.propertyNames ? fromSchema(s.propertyNames as JsonSchema) : fc.string();
      return fc
        .dictionary(
          keys as fc.Arbitrary<string>,
          fromSchema(s.additionalProperties as JsonSchema),
          {
            maxKeys: 4,
          },
        )
        .map((d) => ({ ...d }));
    }
    default:
      throw new Error(`schema type ${String(s.type)}`);
  }
}

const schemas = methodJsonSchemas();
const validRequest = fc
  .constantFrom(...API_METHODS)
  .chain((method) => fromSchema(schemas[method].params).map((params) => ({ method, params })));

describe('contract validation (fast-check)', () => {
  it('arbitrary values as a message never throw, and errors are clean', () => {
    fc.assert(
      fc.property(
        fc.anything({ withNullPrototype: true, withMap: true, withBigInt: true }),
        (raw) => {
          expectCleanError(parseClientMessage(raw));
        },
      ),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('arbitrary JSON as params of every method never throws', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...API_METHODS),
        fc.jsonValue(),
        fc.oneof(fc.integer(), fc.jsonValue()),
        (method, params, id) => {
          const r = parseClientMessage({ type: 'request', id, method, params });
          expectCleanError(r);
          if (!r.ok && r.error.code === 'EINVAL')
            expect(r.error.message.startsWith(method)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('params generated from the published JSON Schema validate and round-trip through JSON', () => {
    fc.assert(
      fc.property(validRequest, fc.nat(), ({ method, params }, id) => {
        const wire = JSON.parse(JSON.stringify({ type: 'request', id, method, params })) as unknown;
        const r = parseClientMessage(wire);
        if (!r.ok)
          throw new Error(`${method} refused ${JSON.stringify(params)}: ${r.error.message}`);
        expect(r.message.params).toEqual(params);
        expect(validateParams(method, r.message.params)).toBeNull();
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('an unknown parameter or a missing required one is refused by name', () => {
    const withRequired = API_METHODS.filter(
      (m) => ((schemas[m].params.required ?? []) as string[]).length > 0,
    );
    fc.assert(
      fc.property(
        validRequest,
        fc.constantFrom(...withRequired),
        fc.stringMatching(/^zz[a-z]{1,8}$/),
        ({ method, params }, other, extra) => {
          const bad = { ...(params as object), [extra]: 1 };
          expect(validateParams(method as ApiMethod, bad)).toContain(
            `unknown parameter "${extra}"`,
          );
          const req = (schemas[other].params.required ?? []) as string[];
          const missing = req[0] as string;
          const gen = fc.sample(fromSchema(schemas[other].params), { numRuns: 1 })[0] as object;
          const without = Object.fromEntries(Object.entries(gen).filter(([k]) => k !== missing));
          expect(validateParams(other, without)).toContain(missing);
        },
      ),
      { numRuns: 500 },
    );
  });
});
