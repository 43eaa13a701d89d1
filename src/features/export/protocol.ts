// The export calls: the selected turn's (or a compaction's, or a simulation's) request as JSON or
// curl, the whole session as an OpenTelemetry trace file and as a Hugging Face session trace (STS),
// redacted by default. Types only.
import type { PipelineOptions } from "../../core/model";
import type { ExportParams, ExportResult } from "../../app/shareExport";
import type { TraceExport, TraceExportParams } from "../../app/otlpTrace";
import type { StsExport, StsExportParams } from "../../app/stsTrace";

export interface ExportMethods {
  /** The selected turn's (or a compaction's summariser) request as JSON or curl, redacted by default. */
  exportRequest: { params: { options: PipelineOptions; params: ExportParams }; result: ExportResult };
  /** The whole session, every thread, as an OTLP/JSON trace (the CLI's `export --format otlp`). */
  exportTrace: { params: { options: PipelineOptions; params: TraceExportParams }; result: TraceExport };
  /** The main thread's conversation as a Hugging Face session trace (the CLI's `export --format sts`). */
  exportSessionTrace: { params: { options: PipelineOptions; params: StsExportParams }; result: StsExport };
}
