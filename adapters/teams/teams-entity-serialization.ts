/**
 * Keeps the extra fields of outgoing activity entities. The Bot Framework SDK serialises activities
 * through its `Entity` model, which in botbuilder 4.23 declares only `type`, `text` and `mentioned`
 * and silently drops everything else — Teams citations (`citation`, `additionalType`) and streaming
 * info (`streamType`, `streamId`, `streamSequence`) included (botbuilder-js #2561 fixed this once;
 * the move to @azure/core-client lost the fix). Declaring free-form additional properties on that
 * model, once per process, makes the serializer pass them through unchanged.
 */
// The package exports no mappers at its root; this module is the one its ConnectorClient serialises with.
import * as connectorMappers from "botframework-connector/lib/connectorApi/models/mappers.js";

type CompositeMapper = { type: { additionalProperties?: { type: { name: string } } } };

export function keepCustomEntityFields(): void {
  const entity = (connectorMappers as unknown as Record<string, CompositeMapper | undefined>).Entity;
  if (!entity)
    throw new Error("botframework-connector no longer exports the Entity mapper; check teams-entity-serialization.ts");
  entity.type.additionalProperties ??= { type: { name: "Object" } };
}
