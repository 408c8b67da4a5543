// What the column stores (trade-log.ts, fill-log.ts) share: a typed array grown to a new length,
// its values kept.
type Column = Float64Array | Int32Array | Uint8Array;

/** `a` copied into a new array of the same kind with room for `size` values. */
export function grownColumn<A extends Column>(a: A, size: number): A {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
}
