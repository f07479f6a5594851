/** A valid input for the synthetic schemas (every property set), for the validation rows. */
export function exampleInput(schema) {
  switch (schema.type) {
    case 'object': {
      const value = {};
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        value[name] = exampleInput(child);
      }
      return value;
    }
    case 'array':
      return [exampleInput(schema.items ?? { type: 'string' }), exampleInput(schema.items ?? {})];
    case 'integer':
      return Math.max(schema.minimum ?? 0, 3);
    case 'number':
      return 2.5;
    case 'boolean':
      return true;
    default:
      return schema.enum === undefined ? 'quarterly figures' : schema.enum[0];
  }
}
