/**
 * The approved-answer store on real databases: embedded PGlite always, PostgreSQL when TEST_DATABASE_URL
 * points at a server (`eval "$(bash .ci/start-postgres.sh)"`). The same SQL, the same assertions.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApprovedAnswerStore,
  createSqlApprovedAnswerStore,
} from "../../src/answer-library/approved-answer-store.js";
import { silentLogger } from "../../src/logger.js";
import { openStores } from "../../src/stores/open-stores.js";
import type { SqlClient } from "../../src/stores/sql-client.js";
import { createScratchDatabase, type ScratchDatabase, testDatabaseUrl } from "../support/ops-postgres-database.js";

function runApprovedAnswerStoreContract(
  name: string,
  openClient: () => Promise<{ client: SqlClient; close(): Promise<void> }>,
) {
  describe(`approved-answer store: ${name}`, () => {
    let store: ApprovedAnswerStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await openClient();
      store = createSqlApprovedAnswerStore(opened.client);
      close = opened.close;
    });
    afterAll(() => close());

    it("stores pairs with their origin, lists them in sheet and row order, and keeps spaces apart", async () => {
      const space = `test:${randomUUID()}`;
      const other = `test:${randomUUID()}`;
      const before = Date.now();
      const { added, replaced } = await store.addFromFile({
        spaceId: space,
        file: "security-review-2025.xlsx",
        addedBy: "U42",
        entries: [
          { question: "Do you encrypt data at rest?", answer: "Yes, AES-256.", sheet: "Security", row: 7 },
          { question: "Do you run background checks?", answer: "Yes, for all staff.", sheet: "HR", row: 3 },
          {
            question: "Is MFA required?",
            answer: "Yes.",
            sheet: "Security",
            row: 4,
            embedding: { model: "m", vector: [0.5, -0.25] },
          },
        ],
      });
      expect(replaced).toBe(0);
      expect(added).toHaveLength(3);
      await store.addFromFile({
        spaceId: other,
        file: "other.csv",
        addedBy: null,
        entries: [{ question: "Other space?", answer: "Yes.", sheet: null, row: 2 }],
      });

      const listed = await store.list(space);
      expect(listed.map((record) => [record.sheet, record.row, record.question, record.answer])).toEqual([
        ["HR", 3, "Do you run background checks?", "Yes, for all staff."],
        ["Security", 4, "Is MFA required?", "Yes."],
        ["Security", 7, "Do you encrypt data at rest?", "Yes, AES-256."],
      ]);
      for (const record of listed) {
        expect(record).toMatchObject({ spaceId: space, file: "security-review-2025.xlsx", addedBy: "U42" });
        expect(record.addedAt.getTime()).toBeGreaterThanOrEqual(before - 60_000);
      }
      const matching = await store.listForMatching(space);
      expect(matching.find((record) => record.question === "Is MFA required?")).toMatchObject({
        embeddingModel: "m",
        embedding: [0.5, -0.25],
      });
      expect(matching.find((record) => record.row === 7)).toMatchObject({ embeddingModel: null, embedding: null });
      expect((await store.list(other)).map((record) => record.question)).toEqual(["Other space?"]);
    });

    it("replaces the pairs of a file added again, saves embeddings, and removes by id within the space only", async () => {
      const space = `test:${randomUUID()}`;
      const entries = [
        { question: "Q1?", answer: "A1", sheet: "S", row: 2 },
        { question: "Q2?", answer: "A2", sheet: "S", row: 3 },
      ];
      await store.addFromFile({ spaceId: space, file: "q.xlsx", addedBy: null, entries });
      await store.addFromFile({
        spaceId: space,
        file: "kept.csv",
        addedBy: null,
        entries: [{ question: "K?", answer: "K", sheet: null, row: 2 }],
      });
      const again = await store.addFromFile({
        spaceId: space,
        file: "q.xlsx",
        addedBy: "U1",
        entries: [{ question: "Q1 (corrected)?", answer: "A1b", sheet: "S", row: 2 }],
      });
      expect(again.replaced).toBe(2);
      expect((await store.list(space)).map((record) => record.question)).toEqual(["K?", "Q1 (corrected)?"]);

      const target = (await store.list(space)).find((record) => record.question === "K?");
      if (!target) throw new Error("K? was not stored");
      await store.saveEmbeddings("bge", [{ id: target.id, vector: [1, 0, 0.125] }]);
      expect((await store.listForMatching(space)).find((record) => record.id === target.id)).toMatchObject({
        embeddingModel: "bge",
        embedding: [1, 0, 0.125],
      });

      expect(await store.remove(`test:${randomUUID()}`, target.id)).toBe(false);
      expect(await store.remove(space, "not-a-uuid")).toBe(false);
      expect(await store.remove(space, target.id)).toBe(true);
      expect(await store.remove(space, target.id)).toBe(false);
      expect((await store.list(space)).map((record) => record.question)).toEqual(["Q1 (corrected)?"]);
    });
  });
}

runApprovedAnswerStoreContract("PGlite", async () => {
  const stores = await openStores(
    { mode: "embedded", dataDir: "memory://" },
    { denseDimensions: 384, logger: silentLogger },
  );
  return { client: stores.client, close: () => stores.client.close() };
});

describe.skipIf(!testDatabaseUrl)("on PostgreSQL (TEST_DATABASE_URL)", () => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await createScratchDatabase("folio_answers");
    return () => database.drop();
  });
  runApprovedAnswerStoreContract("PostgreSQL", async () => {
    const stores = await openStores(
      { mode: "postgres", databaseUrl: database.url },
      { denseDimensions: 384, logger: silentLogger },
    );
    return { client: stores.client, close: () => stores.client.close() };
  });
});
