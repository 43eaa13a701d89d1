// The compressed containers a session file may come in, one file each (./zstd.ts, ./gzip.ts; a new
// kind is one file and its line here). A file is a container by its first bytes, never by its name;
// the names are only what a folder walk looks at.
import type { Container } from "./container";
import { gzipContainer } from "./gzip";
import { zstdContainer } from "./zstd";

export type { Container } from "./container";

const CONTAINERS: readonly Container[] = [zstdContainer, gzipContainer];

/** The container `head` (a file's first bytes) starts like, or null for plain bytes. */
export function containerOf(head: Uint8Array): Container | null {
  return CONTAINERS.find((container) => container.matches(head)) ?? null;
}

/** True when `name` is a name a container usually has (`.zstd`, `.gz`). */
export function isContainerName(name: string): boolean {
  return CONTAINERS.some((container) => container.namePattern.test(name));
}
