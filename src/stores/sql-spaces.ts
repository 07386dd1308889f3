/** The catalog's spaces in SQL: the scopes documents live in and questions search. */
import type { Space } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { Catalog } from "./catalog.js";
import type { SqlClient } from "./sql-client.js";

type SpaceRow = { id: string; title: string; created_at: Date };

function toSpace(row: SpaceRow): Space {
  return { id: row.id, title: row.title, createdAt: row.created_at };
}

export function createSqlSpaces(
  client: SqlClient,
): Pick<Catalog, "ensureSpace" | "getSpace" | "renameSpace" | "listSpaces"> {
  async function getSpace(id: string): Promise<Space | null> {
    const { rows } = await client.query<SpaceRow>("SELECT id, title, created_at FROM spaces WHERE id = $1", [id]);
    const row = rows[0];
    return row ? toSpace(row) : null;
  }

  return {
    async ensureSpace(id, title) {
      await client.query("INSERT INTO spaces (id, title) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [
        id,
        title ?? id,
      ]);
      const space = await getSpace(id);
      if (!space) throw new FolioError("space_missing", `Space ${id} vanished right after it was created.`);
      return space;
    },
    getSpace,

    async renameSpace(id, title) {
      const { rows } = await client.query<SpaceRow>(
        "UPDATE spaces SET title = $2 WHERE id = $1 RETURNING id, title, created_at",
        [id, title],
      );
      const row = rows[0];
      return row ? toSpace(row) : null;
    },

    async listSpaces() {
      const { rows } = await client.query<SpaceRow>("SELECT id, title, created_at FROM spaces ORDER BY created_at, id");
      return rows.map(toSpace);
    },
  };
}
