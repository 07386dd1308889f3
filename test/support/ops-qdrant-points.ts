/**
 * The Qdrant stand-in as a Qdrant that keeps what it is sent: upserted points are held, deletes by
 * document remove them, and a query whose filter names `spaceId` returns every held point (scores in
 * insertion order) — enough for Folio's search and clean-up paths to run against it for real.
 */
import { ok, type QdrantStandIn } from "./qdrant-stand-in.js";

export type HeldPoints = {
  points: Map<string, Record<string, unknown>>;
  /** Point ids each question query returned, in order. */
  queried: string[][];
};

export function keepUpsertedPoints(
  standIn: QdrantStandIn,
  collection: string,
  options: { spaceId: string; onQuestionQuery?: () => void },
): HeldPoints {
  const held: HeldPoints = { points: new Map(), queried: [] };
  const base = `/collections/${collection}`;
  standIn.answer("PUT", new RegExp(`^${base}/points\\?`), (request) => {
    for (const point of (request.body as { points: Array<{ id: string; payload: Record<string, unknown> }> }).points) {
      held.points.set(point.id, point.payload);
      standIn.storedIds.add(point.id);
    }
    return ok({ operation_id: 1, status: "completed" });
  });
  standIn.answer("POST", new RegExp(`^${base}/points/delete\\?`), (request) => {
    const body = request.body as { filter?: { must?: Array<{ key: string; match: { value: string } }> } };
    for (const condition of body.filter?.must ?? []) {
      for (const [id, payload] of held.points)
        if (payload[condition.key] === condition.match.value) held.points.delete(id);
    }
    return ok({ operation_id: 2, status: "completed" });
  });
  standIn.answer("POST", new RegExp(`^${base}/facet$`), () => ok({ hits: [] }));
  standIn.answer("POST", new RegExp(`^${base}/points/count$`), () => ok({ count: held.points.size }));
  const scored = (body: unknown) => {
    // Readiness probes query an empty probe space; only the asked space holds documents.
    if (!JSON.stringify(body).includes(`"${options.spaceId}"`)) return { points: [] };
    options.onQuestionQuery?.();
    const hits = [...held.points].map(([id, payload], index) => ({ id, version: 1, score: 1 / (index + 1), payload }));
    held.queried.push(hits.map((hit) => hit.id));
    return { points: hits };
  };
  standIn.answer("POST", new RegExp(`^${base}/points/query$`), (request) => ok(scored(request.body)));
  standIn.answer("POST", new RegExp(`^${base}/points/query/batch$`), (request) =>
    ok((request.body as { searches: unknown[] }).searches.map(() => scored(request.body))),
  );
  return held;
}
