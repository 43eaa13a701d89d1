// JSON paths for the review list, in JavaScript accessor notation:
// `entries[12].raw.message.content[0].text`, `header["odd key"]`.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/;

export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}
