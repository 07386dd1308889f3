/**
 * Saves the snapshots of the spaces in memory (dense-index-snapshots.ts), so a restart
 * loads them instead of rebuilding them: once their writes have paused for `delayMs`, and on demand
 * (a space just loaded, the store closing). A snapshot is saved with the database version it matches;
 * while a write is between its database statement and its mirror in memory there is no such version,
 * and the save waits for the next pause.
 */
import type { SpaceId } from "../domain/types.js";
import type { DenseIndexSnapshots } from "./dense-index-snapshots.js";
import type { SpaceRows } from "./space-snapshot-file.js";
import type { SpaceSource } from "./space-source.js";
import type { SpaceState } from "./space-state.js";

export type SnapshotSaverOptions = {
  /** How long writes must pause before the changed spaces are saved. */
  delayMs: number;
  /** The spaces in memory now. */
  spaces: () => Iterable<SpaceState>;
  /** Runs a delayed save in turn with the writes, as the spaces must not change while one is saved. */
  inTurn: (work: () => Promise<void>) => Promise<void>;
};

export class SpaceSnapshotSaver {
  private saveTimer: NodeJS.Timeout | null = null;
  /** Writes between their database statement and their mirror here: no snapshot is saved meanwhile. */
  private writesInFlight = 0;
  private writesBegun = 0;

  constructor(
    private readonly snapshots: DenseIndexSnapshots | null,
    private readonly source: SpaceSource,
    private readonly options: SnapshotSaverOptions,
  ) {}

  /**
   * Runs a write that goes to the database and is then mirrored in memory (`work` does both). While
   * one runs, the database may hold rows the memory does not yet, so no snapshot is saved until it ends.
   */
  async writing<T>(work: () => Promise<T>): Promise<T> {
    this.writesInFlight += 1;
    this.writesBegun += 1;
    try {
      return await work();
    } finally {
      this.writesInFlight -= 1;
    }
  }

  /** The space's version in the database, when no write is between database and memory; else undefined. */
  private async quietVersion(spaceId: SpaceId): Promise<string | null | undefined> {
    if (this.writesInFlight > 0) return undefined;
    const begun = this.writesBegun;
    const version = this.source.version ? await this.source.version(spaceId) : null;
    return this.writesInFlight > 0 || this.writesBegun !== begun ? undefined : version;
  }

  /** Saves the changed spaces once `delayMs` has passed without another call. */
  schedule(): void {
    if (!this.snapshots) return;
    if (![...this.options.spaces()].some((space) => space.unsavedChanges > 0)) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.options.inTurn(() => this.saveChanged()).catch(() => undefined);
    }, this.options.delayMs);
    this.saveTimer.unref();
  }

  /** Drops a scheduled save (the store closing saves at once instead). */
  cancelScheduled(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }

  /** Saves every space changed since its snapshot. */
  async saveChanged(): Promise<void> {
    for (const space of this.options.spaces()) {
      if (space.unsavedChanges > 0) await this.save(space);
    }
  }

  /**
   * Saves the space with the database version it matches; while a write is between the database and
   * the memory there is no such version, and the save is left to the next pause.
   */
  async save(space: SpaceState): Promise<void> {
    if (!this.snapshots) return;
    const version = await this.quietVersion(space.spaceId);
    if (version === undefined) {
      this.schedule();
      return;
    }
    if (!space.approximate) {
      if (!space.dense) return;
      const rows: SpaceRows = {
        chunkIds: space.chunkIds,
        documentIds: space.documentIds,
        alive: space.alive,
        // An exact space's rows are its slots: "key" ≥ 0 says the slot has a dense vector.
        keyOfSlot: space.chunkIds.map((_, slot) => (space.hasDense[slot] ? slot : -1)),
        postings: space.postings,
      };
      await this.snapshots.saveExact(space.spaceId, { rows, dense: space.dense, version });
      space.unsavedChanges = 0;
      return;
    }
    const { slotOfKey, keyOfSlot, index } = space.approximate;
    const chunkIdByKey = slotOfKey.map((slot) => (slot >= 0 ? (space.chunkIds[slot] ?? "") : ""));
    const rows: SpaceRows = {
      chunkIds: space.chunkIds,
      documentIds: space.documentIds,
      alive: space.alive,
      keyOfSlot: space.chunkIds.map((_, slot) => keyOfSlot[slot] ?? -1),
      postings: space.postings,
    };
    await this.snapshots.save(space.spaceId, { index, chunkIdByKey, rows, version });
    space.unsavedChanges = 0;
  }
}
