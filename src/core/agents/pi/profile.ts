// pi's two pipeline profiles: pi itself and its fork senpi, which share the reader and most steps.
// `PipelineOptions.profile` is any agent's profile id; pi's code narrows it here once.
import type { PipelineOptions } from "../../model";

export type PiProfileId = "pi" | "senpi";

/** The profile a pi session is rebuilt with: senpi when asked for, else pi (the default). */
export function piProfileOf(options: Pick<PipelineOptions, "profile">): PiProfileId {
  return options.profile === "senpi" ? "senpi" : "pi";
}
