// Captured requests the user attaches: a main request's header or a summariser request's
// instruction slots, and the selected turn against its capture. Types only.
import type { PipelineOptions, RequestHeader } from "../../core/model";
import type { CapturedCompactionRequest, CompactionInstructions } from "../../core/session/index";
import type { CaptureDiffResult } from "../../app/captureCheck";
import type { WireVerification } from "../../app/captureVerify";

export type ParsedCapture =
  | { kind: "header"; header: RequestHeader }
  /** A facts file (`verify --write-facts`, or saved from the page): read with `readFacts`, which checks it fits the session. */
  | { kind: "facts" }
  | {
      kind: "compaction";
      captured: CapturedCompactionRequest;
      source: string;
      /** The slots filled before (given with the call), with this capture's filling the empty ones (the first value of a slot wins). */
      merged: CompactionInstructions;
    };

export interface CapturesMethods {
  /** Parses a captured provider request (a dropped .json file, or its text) into a request header. */
  parseHeader: { params: { data: Blob | string; source: string }; result: RequestHeader };
  /**
   * Parses a dropped or attached captured request: a pi summariser request (accepted by
   * extractCompactionInstructions and without tools) fills compaction instruction slots, merged
   * into `instructions` (the slots filled so far); anything else is read as a main-request header.
   */
  parseCapture: { params: { data: Blob | string; source: string; instructions?: CompactionInstructions | null }; result: ParsedCapture };
  /**
   * A facts file applied to the open session: the first model's header and the others' as further
   * captures, each named after the file; refused (an error naming why) when it is not a facts file
   * or was learnt from another agent; `warning` names a different agent version.
   */
  readFacts: { params: { options: PipelineOptions; data: Blob; source: string }; result: { header: RequestHeader; captures: RequestHeader[]; warning: string | null } };
  /** The facts the attached captures taught (the first capture of each model), as a facts file to save. */
  factsFile: { params: { options: PipelineOptions }; result: { fileName: string; text: string; models: number } };
  /** The selected turn against the attached capture matched to it (null: none matches that turn). */
  captureDiff: { params: { options: PipelineOptions; turn: number }; result: CaptureDiffResult | null };
  /** Every attached main capture verified against its turn, as `verify` does (null: nothing attached). */
  verifyCaptures: { params: { options: PipelineOptions }; result: WireVerification | null };
}
