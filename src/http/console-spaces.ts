/**
 * The console's spaces: the `console:…` spaces a person keeps documents apart in (a handbook here, the
 * filings there), each with its own documents, conversation, questionnaires and approved answers. Listed
 * with their document counts (GET /api/spaces), created with a name people choose (POST, `{"name"}`) and
 * renamed (PATCH /api/spaces/<id>, `{"name"}`): the id is made once from the first name and never changes,
 * so links and everything stored under it stay valid. A Slack channel's or a Teams conversation's space
 * is never listed here, nor reachable through the console: every console request names its space
 * (`?space=`), and only a `console:` space that exists (or the default one) is accepted.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Space, SpaceId } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import { sendJson } from "./http-responses.js";
import { readJsonObject } from "./read-body.js";

export const CONSOLE_SPACE_PREFIX = "console:";
export const CONSOLE_SPACES_PATH = "/api/spaces";
export const CONSOLE_SPACE_PREFIX_PATH = "/api/spaces/";
const MAX_NAME_CHARACTERS = 80;
const MAX_SLUG_CHARACTERS = 40;

export type ConsoleSpaceSummary = {
  id: SpaceId;
  name: string;
  documents: number;
  isDefault: boolean;
};

export type ConsoleSpaces = {
  /** The space a console request acts on: its `?space=` (a `console:` id, or the part after the prefix), else the default. */
  resolve(url: URL): Promise<SpaceId>;
  list(response: ServerResponse): Promise<void>;
  create(request: IncomingMessage, response: ServerResponse): Promise<void>;
  rename(request: IncomingMessage, response: ServerResponse, rawId: string): Promise<void>;
};

/** The name a space is shown by: its title, or, for a space made without one ("console:handbook"), its id's name. */
export function consoleSpaceName(id: SpaceId, space: Space | null): string {
  if (space && space.title !== id && space.title.trim() !== "") return space.title;
  const bare = id.slice(CONSOLE_SPACE_PREFIX.length).replace(/[-_]+/g, " ").trim();
  return bare === "" ? id : `${bare.charAt(0).toUpperCase()}${bare.slice(1)}`;
}

/** A name as typed, flattened; refused when empty, too long or holding control characters. */
function readName(body: Record<string, unknown>): string {
  const name = typeof body.name === "string" ? body.name.replace(/\s+/g, " ").trim() : "";
  if (name === "" || name.length > MAX_NAME_CHARACTERS || /\p{Cc}/u.test(name)) {
    throw new FolioError("invalid_space_name", `Give the space a name of 1 to ${MAX_NAME_CHARACTERS} characters.`, {
      details: { status: 400 },
    });
  }
  return name;
}

/** "Company Handbook 2024" → "company-handbook-2024": letters and digits of the first name, for the id. */
function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_CHARACTERS)
    .replace(/-+$/, "");
  return slug === "" ? "space" : slug;
}

function notFound(id: string): FolioError {
  return new FolioError("space_not_found", `There is no console space "${id}" (it may have been named differently).`, {
    details: { status: 404 },
  });
}

export function createConsoleSpaces(options: {
  catalog: Pick<Catalog, "getSpace" | "ensureSpace" | "renameSpace" | "listSpaces">;
  core: Pick<FolioCore, "listDocuments">;
  defaultSpaceId: SpaceId;
  logger: Logger;
}): ConsoleSpaces {
  const { catalog, defaultSpaceId } = options;

  const toId = (given: string): SpaceId =>
    given.startsWith(CONSOLE_SPACE_PREFIX) ? given : `${CONSOLE_SPACE_PREFIX}${given}`;

  /** A console space that exists (the default one always does, stored or not); null for anything else. */
  const findConsoleSpace = async (id: SpaceId): Promise<{ id: SpaceId; space: Space | null } | null> => {
    if (!id.startsWith(CONSOLE_SPACE_PREFIX)) return null;
    const space = await catalog.getSpace(id);
    if (space === null && id !== defaultSpaceId) return null;
    return { id, space };
  };

  const summarize = async (id: SpaceId, space: Space | null): Promise<ConsoleSpaceSummary> => ({
    id,
    name: consoleSpaceName(id, space),
    documents: (await options.core.listDocuments(id)).length,
    isDefault: id === defaultSpaceId,
  });

  return {
    async resolve(url) {
      const given = url.searchParams.get("space")?.trim() ?? "";
      if (given === "") return defaultSpaceId;
      const found = await findConsoleSpace(toId(given));
      if (!found) throw notFound(given);
      return found.id;
    },

    async list(response) {
      const stored = (await catalog.listSpaces()).filter((space) => space.id.startsWith(CONSOLE_SPACE_PREFIX));
      const entries: Array<{ id: SpaceId; space: Space | null }> = stored.map((space) => ({ id: space.id, space }));
      if (!entries.some((entry) => entry.id === defaultSpaceId)) entries.push({ id: defaultSpaceId, space: null });
      const spaces = await Promise.all(entries.map((entry) => summarize(entry.id, entry.space)));
      // The default first, then by name: the order people look for them in.
      spaces.sort((left, right) =>
        left.isDefault !== right.isDefault ? (left.isDefault ? -1 : 1) : left.name.localeCompare(right.name),
      );
      sendJson(response, 200, { defaultSpaceId, spaces });
    },

    async create(request, response) {
      const name = readName(await readJsonObject(request, 4 * 1024));
      const base = `${CONSOLE_SPACE_PREFIX}${slugOf(name)}`;
      let id = base;
      // Two spaces may share a name; their ids never: "handbook", "handbook-2", …
      for (let attempt = 2; (await findConsoleSpace(id)) !== null; attempt += 1) id = `${base}-${attempt}`;
      const space = await catalog.ensureSpace(id, name);
      options.logger.info({ space: id }, "console space created");
      sendJson(response, 201, { space: await summarize(id, space) });
    },

    async rename(request, response, rawId) {
      let id: string;
      try {
        id = toId(decodeURIComponent(rawId));
      } catch {
        throw notFound(rawId);
      }
      const name = readName(await readJsonObject(request, 4 * 1024));
      const found = await findConsoleSpace(id);
      if (!found) throw notFound(id);
      // The default space may never have been stored (nothing uploaded yet): store it under its new name.
      const renamed = found.space === null ? await catalog.ensureSpace(id, name) : await catalog.renameSpace(id, name);
      if (!renamed) throw notFound(id);
      options.logger.info({ space: id }, "console space renamed");
      sendJson(response, 200, { space: await summarize(id, renamed) });
    },
  };
}
