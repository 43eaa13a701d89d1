// The sessions folders an MCP server was started on, and the one rule every tool obeys: a path is
// read only when its real location (symbolic links resolved) is inside one of them. The sessions
// listed are those `scan` finds (../scan/discover.ts), sub-agent files joined to their parent.
import fs from "node:fs";
import path from "node:path";
import { discoverSessions, type ScanJob } from "../scan/discover";

export class SessionFolders {
  /** The folders as the user named them (for messages) and their real locations. */
  private readonly roots: { named: string; real: string }[];

  constructor(folders: readonly string[]) {
    this.roots = folders.map((named) => {
      const stat = fs.statSync(named, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) throw new Error(`${named}: not a folder`);
      return { named, real: fs.realpathSync(named) };
    });
  }

  /** The folders, as named. */
  get named(): string[] {
    return this.roots.map((root) => root.named);
  }

  /**
   * The real path of `file` when it lies inside a named folder; otherwise a clear error. A path
   * that resolves (through a link anywhere along it) to a place outside the folders is refused.
   */
  resolve(file: string): string {
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(file));
    } catch {
      throw new Error(`${file}: no such file`);
    }
    const inside = this.roots.some((root) => {
      const relative = path.relative(root.real, real);
      return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
    });
    if (!inside) throw new Error(`${file}: refused, it is outside the sessions folders this server reads (${this.named.join(", ")})`);
    return real;
  }

  /** Every session under the folders, as `scan` finds them (those resolving outside are left out). */
  sessions(): ScanJob[] {
    return discoverSessions(this.named).jobs.filter((job) => {
      try {
        this.resolve(job.file);
        return true;
      } catch {
        return false;
      }
    });
  }
}
