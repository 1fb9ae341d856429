/**
 * What the emulator derives from a descriptor (its PEM field, its modules, whether it can hold a
 * reference), computed on the first request that needs it instead of on every one: descriptors
 * never change once built.
 */
export function perDescriptor<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, { readonly value: V }>();
  return (key) => {
    let entry = cache.get(key);
    if (entry === undefined) cache.set(key, (entry = { value: compute(key) }));
    return entry.value;
  };
}
