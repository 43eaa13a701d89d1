// The export call: the selected turn's (or a compaction's, or a simulation's) request as JSON or
// curl, redacted by default. Types only.
import type { PipelineOptions } from "../../core/model";
import type { ExportParams, ExportResult } from "../../app/shareExport";

export interface ExportMethods {
  /** The selected turn's (or a compaction's summariser) request as JSON or curl, redacted by default. */
  exportRequest: { params: { options: PipelineOptions; params: ExportParams }; result: ExportResult };
}
