// Applies a SQLite write-ahead log to the main database image (FM-OC-1): opencode keeps its
// database in WAL mode, so a copy taken while it runs may hold recent rows only in
// `opencode.db-wal`, and a WASM SQLite engine opened on an in-memory image cannot read that file.
// WAL layout (sqlite.org/fileformat2.html §4): a 32-byte header (magic, version, page size,
// checkpoint sequence, salt-1, salt-2, checksum-1, checksum-2), then frames of a 24-byte header
// (page number, database size in pages after commit or 0, salt-1, salt-2, checksum-1,
// checksum-2) followed by one page. A frame is valid when its salts equal the header's and its
// cumulative checksum matches; only frames up to the last valid commit frame count. Pure: bytes in,
// bytes out.

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

export interface WalOverlayResult {
  /** The database image with committed WAL pages applied; journal mode set to rollback. */
  bytes: Uint8Array;
  /** Frames applied (up to the last valid commit). */
  framesApplied: number;
  /** Valid frames after the last commit (an unfinished transaction): ignored. */
  framesUncommitted: number;
  /** Frames left over from an earlier WAL generation (salt or checksum mismatch): ignored. */
  framesStale: number;
  /** Problems with the WAL file itself (wrong magic, page size mismatch, …). */
  warnings: string[];
}

function u32(bytes: Uint8Array, offset: number): number {
  return (((bytes[offset] as number) << 24) | ((bytes[offset + 1] as number) << 16) | ((bytes[offset + 2] as number) << 8) | (bytes[offset + 3] as number)) >>> 0;
}

/** The WAL checksum (fileformat2 §4.1) over `length` bytes from `offset`, continuing from s. */
function walChecksum(bytes: Uint8Array, offset: number, length: number, bigEndian: boolean, s: [number, number]): [number, number] {
  let s0 = s[0];
  let s1 = s[1];
  for (let i = offset; i < offset + length; i += 8) {
    const x0 = bigEndian ? u32(bytes, i) : littleU32(bytes, i);
    const x1 = bigEndian ? u32(bytes, i + 4) : littleU32(bytes, i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

function littleU32(bytes: Uint8Array, offset: number): number {
  return (((bytes[offset + 3] as number) << 24) | ((bytes[offset + 2] as number) << 16) | ((bytes[offset + 1] as number) << 8) | (bytes[offset] as number)) >>> 0;
}

/** Page size from the database header (bytes 16–17; 1 means 65536). */
export function databasePageSize(db: Uint8Array): number {
  if (db.length < 100) return 0;
  const raw = ((db[16] as number) << 8) | (db[17] as number);
  return raw === 1 ? 65536 : raw;
}

/**
 * Marks the image as a rollback-journal database (header bytes 18 and 19 = 1), so the engine
 * does not look for a `-wal` file that is not there.
 */
function clearWalMode(db: Uint8Array): void {
  if (db.length >= 100) {
    db[18] = 1;
    db[19] = 1;
  }
}

/** Returns a copy of `db` with the committed frames of `wal` applied. Never throws. */
export function applyWal(db: Uint8Array, wal: Uint8Array | null): WalOverlayResult {
  const result: WalOverlayResult = { bytes: db.slice(), framesApplied: 0, framesUncommitted: 0, framesStale: 0, warnings: [] };
  clearWalMode(result.bytes);
  if (!wal || wal.length === 0) return result;
  if (wal.length < WAL_HEADER_BYTES) {
    result.warnings.push(`the -wal file is ${wal.length} bytes, shorter than a WAL header: ignored`);
    return result;
  }
  const magic = u32(wal, 0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) {
    result.warnings.push("the -wal file does not start with the SQLite WAL magic number: ignored");
    return result;
  }
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = u32(wal, 8);
  const dbPageSize = databasePageSize(db);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    result.warnings.push(`the -wal file has an invalid page size ${pageSize}: ignored`);
    return result;
  }
  if (dbPageSize !== 0 && dbPageSize !== pageSize) {
    result.warnings.push(`the -wal page size ${pageSize} differs from the database's ${dbPageSize}: it belongs to another database, ignored`);
    return result;
  }
  const salt1 = u32(wal, 16);
  const salt2 = u32(wal, 20);
  let checksum = walChecksum(wal, 0, 24, bigEndian, [0, 0]);
  if (checksum[0] !== u32(wal, 24) || checksum[1] !== u32(wal, 28)) {
    result.warnings.push("the -wal header checksum does not match: the WAL is ignored");
    return result;
  }

  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const frameCount = Math.floor((wal.length - WAL_HEADER_BYTES) / frameBytes);
  // Pages of the transactions committed so far, and of the one in progress.
  const committed = new Map<number, number>();
  let pending = new Map<number, number>();
  let databasePages = 0;
  let validFrames = 0;
  for (let frame = 0; frame < frameCount; frame++) {
    const offset = WAL_HEADER_BYTES + frame * frameBytes;
    if (u32(wal, offset + 8) !== salt1 || u32(wal, offset + 12) !== salt2) break;
    checksum = walChecksum(wal, offset, 8, bigEndian, checksum);
    checksum = walChecksum(wal, offset + FRAME_HEADER_BYTES, pageSize, bigEndian, checksum);
    if (checksum[0] !== u32(wal, offset + 16) || checksum[1] !== u32(wal, offset + 20)) break;
    validFrames = frame + 1;
    const pageNumber = u32(wal, offset);
    pending.set(pageNumber, offset + FRAME_HEADER_BYTES);
    const commitSize = u32(wal, offset + 4);
    if (commitSize !== 0) {
      for (const [page, at] of pending) committed.set(page, at);
      pending = new Map();
      databasePages = commitSize;
      result.framesApplied = validFrames;
    }
  }
  result.framesUncommitted = validFrames - result.framesApplied;
  result.framesStale = frameCount - validFrames;
  if (databasePages === 0) {
    return result;
  }

  const image = new Uint8Array(databasePages * pageSize);
  image.set(result.bytes.subarray(0, Math.min(result.bytes.length, image.length)));
  for (const [page, at] of committed) {
    if (page < 1 || page > databasePages) continue;
    image.set(wal.subarray(at, at + pageSize), (page - 1) * pageSize);
  }
  clearWalMode(image);
  // In-header database size (offset 28, big-endian): the size after the last commit.
  image[28] = (databasePages >>> 24) & 0xff;
  image[29] = (databasePages >>> 16) & 0xff;
  image[30] = (databasePages >>> 8) & 0xff;
  image[31] = databasePages & 0xff;
  result.bytes = image;
  return result;
}

/** What a reader is handed: the image to open, and what to say about the WAL. */
export interface WalImage {
  bytes: Uint8Array;
  /** A WAL was given (applied, or left out with a warning saying why). */
  walApplied: boolean;
  walWarnings: string[];
}

/**
 * Reads `db` with the committed frames of `wal` applied. A WAL of another database with the same
 * page size passes every check of its own (its frames match its own header), yet its pages make
 * the image unreadable ("malformed database schema"); when the image with the WAL cannot be read
 * and the main file alone can, the main file is read, with a warning naming what SQLite said.
 * Any other failure is the reader's own and is thrown as it was.
 */
export async function readWithWal<T>(db: Uint8Array, wal: Uint8Array | null, read: (image: WalImage) => T | Promise<T>): Promise<T> {
  const overlay = applyWal(db, wal);
  const walApplied = wal !== null;
  try {
    return await read({ bytes: overlay.bytes, walApplied, walWarnings: overlay.warnings });
  } catch (error) {
    if (overlay.framesApplied === 0) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    const warning =
      `the -wal file's pages make the database unreadable (SQLite: ${detail}): it belongs to another database or is damaged, ` +
      "so the main file was opened without it; rows written since the last checkpoint may be missing";
    try {
      return await read({ bytes: applyWal(db, null).bytes, walApplied, walWarnings: [...overlay.warnings, warning] });
    } catch {
      throw error;
    }
  }
}
