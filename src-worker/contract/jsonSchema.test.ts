import { describe, expect, it } from 'vitest';
import { eventJsonSchema, methodJsonSchemas } from './jsonSchema.js';
import { API_METHODS } from './validate.js';

describe('JSON Schema from the contract', () => {
  it('has params and result schemas for every method', () => {
    const schemas = methodJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual([...API_METHODS].sort());
    for (const method of API_METHODS) {
      const s = schemas[method];
      expect(s.description.length, method).toBeGreaterThan(0);
      expect(s.params, method).toMatchObject({ type: 'object', additionalProperties: false });
      expect(s.result, method).toHaveProperty('$schema');
    }
    expect(schemas.readDir.params).toMatchObject({
      required: ['sandboxId', 'path'],
      properties: { snapshotId: { type: 'string' } },
    });
    expect(schemas.run.result).toMatchObject({
      required: expect.arrayContaining(['stdout', 'stderr', 'status', 'durationMs']),
    });
  });

  it('describes every event type', () => {
    const schema = eventJsonSchema() as { oneOf?: { properties: { type: { const: string } } }[] };
    const types = (schema.oneOf ?? []).map((s) => s.properties.type.const);
    expect(types).toEqual(
      expect.arrayContaining(['sandboxes', 'step', 'terminalData', 'request', 'requestClosed']),
    );
  });
});
