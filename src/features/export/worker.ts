// Export in the pipeline worker: a request as the Request view shows it, as JSON or curl; the
// whole session as an OpenTelemetry trace file (the main session, whatever thread is shown), and
// its conversation as a Hugging Face session trace (STS).
import { exportRequest } from "../../app/shareExport";
import { exportTraceFile } from "../../app/otlpTrace";
import { exportStsFile } from "../../app/stsTrace";
import { datasetPriceTable } from "../../core/pricing/dataset";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import type { ExportMethods } from "./protocol";

export type { ExportMethods } from "./protocol";

export function exportHandlers(host: SessionHost): HandlerTable<ExportMethods> {
  const { ofSession } = handlerKit(host);
  return {
    exportRequest: ofSession({ stage: "exporting a request", tables: "all" }, ({ options, params }, { target }) => exportRequest(target, options, params)),
    exportTrace: ofSession({ stage: "exporting the session as a trace", tables: "none" }, ({ options, params }, { session }) =>
      exportTraceFile(session, options, params, datasetPriceTable()),
    ),
    exportSessionTrace: ofSession({ stage: "exporting the session as a Hugging Face session trace", tables: "none" }, ({ options, params }, { session }) => exportStsFile(session, { ...options, thread: null }, params)),
  };
}
