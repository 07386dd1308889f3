/**
 * docker/qdrant-cluster.yml, read without Docker: three Qdrant nodes in distributed mode, the first
 * starting the cluster and the others bootstrapping from it over the peer port, each with its own volume
 * and healthcheck, the image pinned to the client's version, and only node 1's REST port published on
 * loopback.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseYamlSubset, type YamlMapping } from "../support/yaml-subset.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const read = (name: string) => readFileSync(path.join(repositoryRoot, name), "utf8");
const compose = parseYamlSubset(read("docker/qdrant-cluster.yml")) as YamlMapping;
const services = compose.services as YamlMapping;
const node = (name: string) => services[name] as YamlMapping;

describe("docker/qdrant-cluster.yml", () => {
  it("runs three nodes in distributed mode, nodes 2 and 3 bootstrapping from node 1's peer port", () => {
    expect(Object.keys(services).sort()).toEqual(["qdrant-1", "qdrant-2", "qdrant-3"]);
    expect(node("qdrant-1").command).toEqual(["./qdrant", "--uri", "http://qdrant-1:6335"]);
    for (const name of ["qdrant-2", "qdrant-3"]) {
      expect(node(name).command).toEqual([
        "./qdrant",
        "--bootstrap",
        "http://qdrant-1:6335",
        "--uri",
        `http://${name}:6335`,
      ]);
      expect(node(name).depends_on).toEqual({ "qdrant-1": { condition: "service_healthy" } });
    }
    for (const name of Object.keys(services)) {
      expect(node(name).environment).toMatchObject({
        QDRANT__CLUSTER__ENABLED: "true",
        QDRANT__CLUSTER__P2P__PORT: "6335",
      });
      expect(node(name).volumes).toEqual([`${name}-storage:/qdrant/storage`]);
      expect((node(name).healthcheck as YamlMapping).test).toContain("bash");
    }
    expect(Object.keys(compose.volumes as YamlMapping).sort()).toEqual([
      "qdrant-1-storage",
      "qdrant-2-storage",
      "qdrant-3-storage",
    ]);
  });

  it("pins the image to the client's major.minor and publishes only node 1's REST port, on loopback", () => {
    const client = JSON.parse(read("package.json")).dependencies["@qdrant/js-client-rest"] as string;
    const [major, minor] = client.replace(/^[^\d]*/, "").split(".");
    for (const name of Object.keys(services)) {
      expect(node(name).image).toMatch(new RegExp(`^qdrant/qdrant:v${major}\\.${minor}\\.\\d+$`));
    }
    expect(node("qdrant-1").ports).toEqual(["127.0.0.1:6333:6333"]);
    expect(node("qdrant-2").ports).toBeUndefined();
    expect(node("qdrant-3").ports).toBeUndefined();
  });
});
