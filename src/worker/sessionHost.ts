// What the pipeline worker holds for the page: the open session (and the open run that produced
// it), the analysis last made and last sent, and the features' services of that session. A
// feature never keeps a module-level variable for its session: it names a slot, and the host
// keeps the slot's service for the session shown — made on first use, dropped when another
// session is installed, carried over (or dropped) when a followed session grows.
import type { PipelineOptions, Session } from "../core/model";
import { analyzeSession, type SessionAnalysis } from "../core/session/pipeline";
import { timelineWithAuxiliary } from "../core/session/timeline";
import { releaseSessionTexts } from "../core/session/textStores";

/** A feature's service of the session shown (or of one of its threads). */
export interface SessionSlot<T> {
  /** "target" (default): one service per session shown, a thread having its own; "run": one per open run, whatever the thread. */
  readonly scope?: "target" | "run";
  /**
   * Makes the service of `target`; `isCurrent` says whether it is still the one the host keeps (a
   * pass in progress stops when not); `detached`: a service for a call about an earlier value of a
   * session that grew since, kept by nobody.
   */
  make(target: Session, isCurrent: () => boolean, detached: boolean): T;
  /** The followed session grew into `next`: the service carried over to it, or null to make a new one on next use. */
  grow?(service: T, next: Session): T | null;
  /** Called when the service is dropped (its workers closed, its caches freed). */
  dispose?(service: T): void;
}

/** State a feature keeps across sessions (captured request bodies, the followed file). */
export interface WorkerSlot<T> {
  make(): T;
  /** Called when another session is installed or the session grows (a compare view's second session is forgotten). */
  onSessionChange?(value: T): void;
}

interface KeptService {
  runId: number;
  session: Session;
  service: unknown;
}

export class SessionHost {
  /** The open run currently reading; 0 when none (or it was cancelled). */
  activeRunId = 0;
  private current: Session | null = null;
  private currentRunId = 0;
  /** The last analysis, reused while the options stay the same. */
  private lastAnalysis: { key: string; value: SessionAnalysis } | null = null;
  /**
   * The analysis the page was last sent (an `analyze` answer, or grown by a delta), with its serial
   * number: what the next delta extends, and how the page tells it holds that one.
   */
  sentAnalysis: { key: string; value: SessionAnalysis; id: number } | null = null;
  private sentSerial = 0;
  private readonly services = new Map<SessionSlot<unknown>, KeptService>();
  private readonly kept = new Map<WorkerSlot<unknown>, unknown>();
  /** Earlier values of the open session that a followed file grew out of. */
  private readonly grownOut = new WeakSet<Session>();

  /** The session shown, or null. */
  get session(): Session | null {
    return this.current;
  }

  /** The open run that produced the session shown (0: none). */
  get sessionRunId(): number {
    return this.currentRunId;
  }

  /** The open session, for a call that needs one. */
  openSession(): Session {
    if (!this.current) throw new Error("No session is open.");
    return this.current;
  }

  /** Makes `read` the session the calls are about (a new open's, provisional or final); services start afresh. */
  install(read: Session, runId: number): void {
    // The bytes of the previous session's stored texts go with it (a provisional value's go on in the final one).
    releaseSessionTexts(this.current, read);
    // The views of one open (the entries read so far, then the whole file) extend the analysis the
    // page holds: a delta against it is still what the page can apply. Another open's is not.
    if (runId !== this.currentRunId) this.sentAnalysis = null;
    this.current = read;
    this.currentRunId = runId;
    this.lastAnalysis = null;
    for (const [slot, kept] of this.services) slot.dispose?.(kept.service);
    this.services.clear();
    this.sessionChanged();
  }

  /**
   * The followed file grew: `next` appends to the open session (its agent's caches were carried
   * over to it). Unlike `install`, a service whose slot can grow goes on with the new turns; the
   * others start afresh.
   */
  grow(next: Session): void {
    const previous = this.current;
    releaseSessionTexts(previous, next);
    if (previous) this.grownOut.add(previous);
    this.current = next;
    this.lastAnalysis = null;
    for (const [slot, kept] of [...this.services]) {
      const carried = kept.runId === this.currentRunId && (slot.scope === "run" || kept.session === previous);
      const grown = carried && slot.grow ? slot.grow(kept.service, next) : null;
      if (grown === null) {
        this.services.delete(slot);
        slot.dispose?.(kept.service);
      } else this.services.set(slot, { ...kept, session: next, service: grown });
    }
    this.sessionChanged();
  }

  /** Forgets a provisional session whose read did not finish. */
  forget(runId: number): void {
    if (this.currentRunId !== runId) return;
    releaseSessionTexts(this.current);
    this.current = null;
    this.currentRunId = 0;
  }

  /**
   * The service of `slot` for `target` (the open session or one of its threads: a new service per
   * thread shown). A call that began before the session grew is about an earlier value: it gets a
   * service of its own, so the open session's service goes on.
   */
  serviceFor<T>(slot: SessionSlot<T>, target: Session): T {
    if (this.grownOut.has(target)) return slot.make(target, () => false, true);
    const kept = this.services.get(slot as SessionSlot<unknown>);
    if (kept?.runId === this.currentRunId && (slot.scope === "run" || kept.session === target)) return kept.service as T;
    if (kept) slot.dispose?.(kept.service as T);
    const runId = this.currentRunId;
    const entry: KeptService = { runId, session: target, service: null };
    entry.service = slot.make(target, () => this.currentRunId === runId && this.services.get(slot as SessionSlot<unknown>)?.service === entry.service, false);
    this.services.set(slot as SessionSlot<unknown>, entry);
    return entry.service as T;
  }

  /** The state a feature keeps across sessions. */
  keep<T>(slot: WorkerSlot<T>): T {
    if (!this.kept.has(slot as WorkerSlot<unknown>)) this.kept.set(slot as WorkerSlot<unknown>, slot.make());
    return this.kept.get(slot as WorkerSlot<unknown>) as T;
  }

  private sessionChanged(): void {
    for (const [slot, value] of this.kept) slot.onSessionChange?.(value);
  }

  /** The analysis of `target` under `options` (the last one is kept while the options stay the same). */
  analyze(target: Session, options: PipelineOptions): SessionAnalysis {
    const key = optionsKey(options);
    if (this.lastAnalysis?.key === key) return this.lastAnalysis.value;
    return this.keepAnalysis(key, analyzeSession(target, options));
  }

  /** Notes `value` (made for the options of `key`) as the analysis the page holds from now on; its serial number. */
  noteSent(key: string, value: SessionAnalysis): number {
    const id = ++this.sentSerial;
    this.sentAnalysis = { key, value, id };
    return id;
  }

  /** The analysis kept for `options`, if it is the last one made (never makes one). */
  keptAnalysis(options: PipelineOptions): SessionAnalysis | undefined {
    return this.lastAnalysis?.key === optionsKey(options) ? this.lastAnalysis.value : undefined;
  }

  /** Keeps `analysis` (made for the options of `key`) as the one the next `analyze` call answers with. */
  keepAnalysis(key: string, analysis: SessionAnalysis): SessionAnalysis {
    // Auxiliary requests (opencode title / summariser) become timeline rows of their own.
    const value = analysis.auxiliary?.length ? { ...analysis, timeline: timelineWithAuxiliary(analysis.timeline, analysis.auxiliary) } : analysis;
    this.lastAnalysis = { key, value };
    return value;
  }
}

/** The cache key of a call's options. */
export function optionsKey(options: PipelineOptions): string {
  return JSON.stringify(options);
}
