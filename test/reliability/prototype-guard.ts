/**
 * Snapshots of the built-in prototypes, to prove that untrusted names never reach them:
 * `expectPrototypesUntouched(snapshot)` fails on any added, removed or changed property.
 */

const GUARDED: Readonly<Record<string, object>> = {
  'Object.prototype': Object.prototype,
  'Array.prototype': Array.prototype,
  'Function.prototype': Function.prototype,
  'String.prototype': String.prototype,
};

/** Own property descriptors of the guarded prototypes, by name. */
export type PrototypeSnapshot = ReadonlyMap<string, ReadonlyMap<PropertyKey, PropertyDescriptor>>;

/** Records the own properties (keys, values, accessors) of the guarded prototypes. */
export function snapshotPrototypes(): PrototypeSnapshot {
  const snapshot = new Map<string, Map<PropertyKey, PropertyDescriptor>>();
  for (const [name, prototype] of Object.entries(GUARDED)) {
    const descriptors = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(prototype)) {
      descriptors.set(key, Object.getOwnPropertyDescriptor(prototype, key)!);
    }
    snapshot.set(name, descriptors);
  }
  return snapshot;
}

/** The differences between `before` and the prototypes now; empty when untouched. */
export function diffPrototypes(before: PrototypeSnapshot): string[] {
  const after = snapshotPrototypes();
  const changes: string[] = [];
  for (const [name, descriptors] of after) {
    const previous = before.get(name)!;
    for (const [key, descriptor] of descriptors) {
      const old = previous.get(key);
      if (old === undefined) changes.push(`${name}: added ${String(key)}`);
      else if (!sameDescriptor(old, descriptor)) changes.push(`${name}: changed ${String(key)}`);
    }
    for (const key of previous.keys()) {
      if (!descriptors.has(key)) changes.push(`${name}: removed ${String(key)}`);
    }
  }
  // a polluted prototype also shows on a fresh object
  const probe: Record<string, unknown> = {};
  for (const key of ['polluted', 'isAdmin', 'type', 'properties', 'x', 'a', 'next']) {
    if (key in probe) changes.push(`({}).${key} is inherited`);
  }
  return changes;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return (
    Object.is(a.value, b.value) &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}
