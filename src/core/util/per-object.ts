// One value per object, made on first ask and gone with the object: the state a stage carries
// for one session (or one index) from call to call, without holding a closed session alive.

/** A function giving each key its own value, made by `make` the first time the key is asked for. */
export function perObject<K extends object, V>(make: () => V): (key: K) => V {
  const values = new WeakMap<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = make();
      values.set(key, value);
    }
    return value;
  };
}
