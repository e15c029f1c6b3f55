/** JSON pointers (RFC 6901) into the opaque configuration documents: read one member, or a copy with one set. */
const tokens = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));

export function getAt(value: unknown, pointer: string): unknown {
  return tokens(pointer).reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** A deep copy of `value` with the member at `pointer` set (objects on the way are created). */
export function setAt<T>(value: T, pointer: string, member: unknown): T {
  const path = tokens(pointer);
  if (path.length === 0) return member as T;
  const copy = structuredClone(value) as Record<string, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) {
    if (!node[k] || typeof node[k] !== 'object') node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[path.at(-1)!] = member;
  return copy as T;
}
