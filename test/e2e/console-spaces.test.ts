/**
 * The console's spaces over HTTP against a real Folio (keyword-only, no shared data needed): names people
 * choose become ids once (two spaces of one name get two ids), renaming keeps the id and what is in the
 * space, every console call acts on the space it names, and a chat platform's space is neither listed,
 * renamed nor reached. The browser side is console-spaces-browser.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const HEADERS = { "X-Folio-Console": "1", "Content-Type": "application/json" };

type SpaceSummary = { id: string; name: string; documents: number; isDefault: boolean };

describe("console spaces (HTTP)", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ environment: { FOLIO_EMBED_MODEL: "none" } });
    await server.folio.ingestion.ingestFile({
      bytes: new TextEncoder().encode("# Channel notes\n\nThe channel's own document."),
      fileName: "channel.md",
      spaceId: "slack:T1:C1",
      uploader: "U1",
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const listSpaces = async () =>
    (await (await fetch(`${server.url}/api/spaces`)).json()) as { defaultSpaceId: string; spaces: SpaceSummary[] };

  const create = async (name: unknown) =>
    fetch(`${server.url}/api/spaces`, { method: "POST", headers: HEADERS, body: JSON.stringify({ name }) });

  const rename = async (id: string, name: string) =>
    fetch(`${server.url}/api/spaces/${encodeURIComponent(id)}`, {
      method: "PATCH",
      headers: HEADERS,
      body: JSON.stringify({ name }),
    });

  const upload = async (query: string, fileName: string, text: string) => {
    const form = new FormData();
    form.append("file", new Blob([text]), fileName);
    const response = await fetch(`${server.url}/api/upload${query}`, {
      method: "POST",
      body: form,
      headers: { "X-Folio-Console": "1" },
    });
    return { status: response.status, body: await response.text() };
  };

  it("makes an id from the first name once, and another for a second space of the same name", async () => {
    const first = await create("  Filings 2023 ");
    expect(first.status).toBe(201);
    expect(((await first.json()) as { space: SpaceSummary }).space).toEqual({
      id: "console:filings-2023",
      name: "Filings 2023",
      documents: 0,
      isDefault: false,
    });
    const second = (await (await create("Filings 2023")).json()) as { space: SpaceSummary };
    expect(second.space.id).toBe("console:filings-2023-2");
    for (const bad of ["", "   ", "x".repeat(81), 42, "tab\tname\u0007"]) {
      const refused = await create(bad);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_space_name");
    }
    // Creating and renaming change state: refused without the console's header (another site's form).
    const foreign = await fetch(`${server.url}/api/spaces`, { method: "POST", body: JSON.stringify({ name: "x" }) });
    expect(foreign.status).toBe(403);
  });

  it("keeps uploads, the thread and questions in the space each call names", async () => {
    expect((await upload("?space=filings-2023", "notes.md", "# Notes\n\nThe audit closes in March.")).status).toBe(200);
    const documentsOf = async (query: string) =>
      ((await (await fetch(`${server.url}/api/documents${query}`)).json()) as { spaceId: string; documents: unknown[] })
        .documents.length;
    expect(await documentsOf("?space=filings-2023")).toBe(1);
    expect(await documentsOf("?space=console:filings-2023")).toBe(1);
    expect(await documentsOf("")).toBe(0);
    expect(await documentsOf("?space=filings-2023-2")).toBe(0);
    const history = (await (await fetch(`${server.url}/api/history?space=filings-2023`)).json()) as {
      spaceId: string;
      entries: Array<{ kind: string }>;
    };
    expect(history.spaceId).toBe("console:filings-2023");
    expect(history.entries.map((entry) => entry.kind)).toEqual(["upload"]);
    expect(((await (await fetch(`${server.url}/api/history`)).json()) as { entries: unknown[] }).entries).toEqual([]);
  });

  it("renames a space under the same id, its documents still in it, and lists only console spaces", async () => {
    const renamed = await rename("console:filings-2023", "Annual filings");
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { space: SpaceSummary }).space).toEqual({
      id: "console:filings-2023",
      name: "Annual filings",
      documents: 1,
      isDefault: false,
    });
    // The default space, never stored yet, can be named too.
    expect((await rename("console:default", "General")).status).toBe(200);
    const { defaultSpaceId, spaces } = await listSpaces();
    expect(defaultSpaceId).toBe("console:default");
    expect(spaces.map((space) => [space.id, space.name, space.documents])).toEqual([
      ["console:default", "General", 0],
      ["console:filings-2023", "Annual filings", 1],
      ["console:filings-2023-2", "Filings 2023", 0],
    ]);
  });

  it("neither renames nor reaches a chat platform's space, nor one that does not exist", async () => {
    for (const id of ["slack:T1:C1", "console:nowhere"]) {
      const refused = await rename(id, "Mine now");
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("space_not_found");
    }
    expect((await server.folio.catalog.getSpace("slack:T1:C1"))?.title).toBe("slack:T1:C1");
    for (const query of ["?space=slack:T1:C1", "?space=nowhere"]) {
      expect((await fetch(`${server.url}/api/documents${query}`)).status).toBe(404);
      expect((await upload(query, "x.md", "# X\n\ntext")).status).toBe(404);
    }
  });
});
