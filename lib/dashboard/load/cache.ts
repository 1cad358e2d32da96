/**
 * The dashboard's one cache: one object per (database, project, label-set version), created by the
 * load (lib/dashboard/data.ts) and dropped as a whole when the version moves. It holds what was
 * loaded (the data, the runs' rankings and the Generation section's answers once asked for) and
 * what the panels computed from it (`memo`, `per`).
 *
 * What a new version computes incrementally from the previous one (a query's alignment, a slice's
 * report, the bootstrap's per-resample sums, the runs' rankings, which never change) lives in the
 * project's lineage (`carried`): the one part a version's cache object hands on to the next one
 * of the same project and database, never shared with another project or database.
 */
import type { TRunRankings } from "../rankings.ts";
import type { TGenerationState } from "./answers.ts";

/** What a project's successive cache objects hand on to each other (one per database and project). */
export type TLineage = {
  /** Each run's rankings by run id and content hash: immutable, loaded once (lib/dashboard/load/rankings.ts). */
  rankings: Map<string, Promise<TRunRankings>>;
  /** The Generation section's answers and labels, with their own versions (lib/dashboard/load/answers.ts). */
  generation: TGenerationState | undefined;
  /** Named state the panels keep from one version to the next (see `carried`). */
  state: Map<string, unknown>;
};

export function newLineage(): TLineage {
  return { rankings: new Map(), generation: undefined, state: new Map() };
}

export class DashboardCache {
  private readonly results = new Map<string, unknown>();
  private readonly stores = new Map<string, unknown>();

  constructor(
    readonly version: string,
    readonly lineage: TLineage,
  ) {}

  /** A panel's result for this version and its options, computed once. */
  memo<T>(key: string, fn: () => T): T {
    if (this.results.has(key)) return this.results.get(key) as T;
    const v = fn();
    this.results.set(key, v);
    return v;
  }

  /** A store (a Map, a WeakMap) of one computation for this version only, created on first use. */
  per<T>(name: string, make: () => T): T {
    let s = this.stores.get(name) as T | undefined;
    if (s === undefined) this.stores.set(name, (s = make()));
    return s;
  }

  /** Drops the stores kept from version to version whose names start with `prefix` (tests computing from scratch). */
  forget(prefix: string): void {
    for (const name of [...this.lineage.state.keys()]) if (name.startsWith(prefix)) this.lineage.state.delete(name);
  }

  /** A store kept from one version of this project to the next (incremental computation), created on first use. */
  carried<T>(name: string, make: () => T): T {
    const state = this.lineage.state;
    let s = state.get(name) as T | undefined;
    if (s === undefined) state.set(name, (s = make()));
    return s;
  }
}

/**
 * The cache object of loaded data: the one the load attached to it, or, for data built by hand
 * (unit tests, benchmarks of one panel), one of its own, made on first use.
 */
export type TCacheHolder = { version: string; cache?: DashboardCache };

export function cacheOf(data: TCacheHolder): DashboardCache {
  return (data.cache ??= new DashboardCache(data.version, newLineage()));
}
