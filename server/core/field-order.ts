/**
 * `shape` with the fields named in `after[key]` moved to follow `key`, the rest in their own
 * order. A shape assembled from a shared part (such as the offer/entitlement template) and a
 * record's own fields keeps the field order its API was published with; a zod object answers its
 * fields in its shape's order.
 */
export function placeFieldsAfter<S extends Record<string, unknown>>(
  shape: S,
  after: Partial<Record<keyof S & string, readonly (keyof S & string)[]>>,
): S {
  const follow: Record<string, readonly string[] | undefined> = after;
  const placed = new Set(Object.values(follow).flatMap((keys) => keys ?? []));
  const order = Object.keys(shape)
    .filter((key) => !placed.has(key))
    .flatMap((key) => [key, ...(follow[key] ?? [])]);
  if (order.length !== Object.keys(shape).length)
    throw new Error(`placeFieldsAfter: ${[...placed].join(", ")} must follow fields of the shape`);
  return Object.fromEntries(order.map((key) => [key, shape[key]])) as S;
}
