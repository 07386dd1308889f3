/**
 * The catalog's small records every replica shares, in SQL: chat events already processed (so a
 * retried delivery is answered once), feedback on answers, and named settings.
 */
import { randomUUID } from "node:crypto";
import { FolioError } from "../errors.js";
import type { Catalog } from "./catalog.js";
import { type FeedbackRow, toFeedback } from "./catalog-rows.js";
import type { SqlClient } from "./sql-client.js";

export function createSqlProcessedEvents(client: SqlClient): Pick<Catalog, "markEventProcessed" | "releaseEvent"> {
  return {
    async markEventProcessed(eventId) {
      const { rows } = await client.query(
        "INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING RETURNING event_id",
        [eventId],
      );
      return rows.length === 1;
    },

    async releaseEvent(eventId) {
      await client.query("DELETE FROM processed_events WHERE event_id = $1", [eventId]);
    },
  };
}

export function createSqlFeedback(client: SqlClient): Pick<Catalog, "addFeedback" | "listFeedback"> {
  return {
    async addFeedback({ answerId, spaceId, user, rating, comment }) {
      const { rows } = await client.query<FeedbackRow>(
        `INSERT INTO feedback (id, answer_id, space_id, user_id, rating, comment)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [randomUUID(), answerId, spaceId, user, rating, comment ?? null],
      );
      if (!rows[0]) throw new FolioError("feedback_insert_failed", "The database did not return the new feedback.");
      return toFeedback(rows[0]);
    },

    async listFeedback(answerId) {
      const { rows } = await client.query<FeedbackRow>("SELECT * FROM feedback WHERE answer_id = $1 ORDER BY seq", [
        answerId,
      ]);
      return rows.map(toFeedback);
    },
  };
}

export function createSqlSettings(client: SqlClient): Pick<Catalog, "getSetting" | "setSetting"> {
  return {
    async getSetting(key) {
      const { rows } = await client.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]);
      return rows[0]?.value ?? null;
    },

    async setSetting(key, value) {
      if (value === null) {
        await client.query("DELETE FROM settings WHERE key = $1", [key]);
        return;
      }
      await client.query(
        `INSERT INTO settings (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
        [key, value],
      );
    },
  };
}
