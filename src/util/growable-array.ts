type NumericArray = Int32Array | Float64Array;

/**
 * An append-only typed array that doubles its buffer when full: one allocation per doubling
 * instead of a typed array per item (each costs ~1 µs outside the V8 heap).
 */
class GrowableArray<T extends NumericArray> {
  #items: T;
  #length = 0;
  readonly #create: (size: number) => T;

  constructor(create: (size: number) => T, capacity: number) {
    this.#create = create;
    this.#items = create(Math.max(1, capacity));
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#items.length) {
      const larger = this.#create(this.#items.length * 2);
      larger.set(this.#items);
      this.#items = larger;
    }
    this.#items[this.#length++] = value;
  }

  /** The item at `index` (`index < length`). */
  at(index: number): number {
    return this.#items[index]!;
  }

  /** The items so far, without copying; valid until the next `push`. */
  view(): T {
    return this.#items.subarray(0, this.#length) as T;
  }

  /** The items so far in an array of exactly their length (a copy unless already full). */
  trimmed(): T {
    return this.#length === this.#items.length
      ? this.#items
      : (this.#items.slice(0, this.#length) as T);
  }
}

export class GrowableInt32Array extends GrowableArray<Int32Array> {
  constructor(capacity = 64) {
    super((size) => new Int32Array(size), capacity);
  }
}

export class GrowableFloat64Array extends GrowableArray<Float64Array> {
  constructor(capacity = 64) {
    super((size) => new Float64Array(size), capacity);
  }
}
