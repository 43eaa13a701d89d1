// The share calls: the link of the current view (its fragment, size level and redaction review)
// and the reproduction bundle file. Types only.
import type { PipelineOptions } from "../../core/model";
import type { ShareParams, ShareResult } from "../../app/shareExport";

export interface ShareMethods {
  /** The `#v2=` fragment of the current view, its size level and the redaction review list. */
  buildShare: { params: { options: PipelineOptions; params: ShareParams }; result: ShareResult };
  /** The reproduction bundle file of the current view. */
  shareBundle: { params: { options: PipelineOptions; params: ShareParams }; result: { text: string; fileName: string } };
}
