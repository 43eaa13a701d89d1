// Public entry of the readers: line splitting, the format registry and the convenience readers.
export { LineSplitter, splitTextLines, splitBytesLines, type DecodeFn, type LineCallback } from "./lines";
export type { FormatReader, LineReader } from "./types";
export {
  FORMAT_READERS,
  DETECTION_LINE_COUNT,
  UnsupportedFormatError,
  detectFormat,
  getFormatReader,
  emptySession,
  openSessionReader,
  readSessionText,
  readSessionBytes,
  readSessionChunks,
} from "./registry";
export { piReader, detectPi, PI_ENTRY_TYPES, PI_FORMAT_ID, PI_CURRENT_VERSION } from "../agents/pi/reader";
export { opencodeExportReader, detectOpencodeExport, isSqliteHeader, readOpencodeExportText, SQLITE_MAGIC } from "../agents/opencode/reader";
export { messageListReader, detectMessageList, readMessageListText, MESSAGES_FORMAT_ID, MESSAGES_FORMAT_LABEL } from "../agents/hermes/reader";
