/**
 * The deployment files' contract, checked without Docker (which the test machines do not have): the
 * Dockerfile's two images, .dockerignore, docker-compose.yml (+ the CUDA override) and .env.example, read
 * from the repository and asserted on. docker/prune-node-modules.sh is run for real on a fake node_modules.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type Environment, loadConfig } from "../../src/config/config.js";
import { CONFIG_VARIABLES } from "../../src/config/config-variables.js";
import { parseYamlSubset, type YamlMapping, type YamlValue } from "../support/yaml-subset.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const readRepositoryFile = (name: string) => readFileSync(path.join(repositoryRoot, name), "utf8");

// ---------------------------------------------------------------------------------------------------------
// Dockerfile

type Instruction = { keyword: string; arguments: string; line: number };
type Stage = { name: string; base: string; instructions: Instruction[] };

/** Instructions with their continuation lines joined and comments dropped, grouped by stage. */
function parseDockerfile(source: string): { globalArguments: Map<string, string>; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  source.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith("#") || (trimmed === "" && pending === null)) return;
    const continued = trimmed.endsWith("\\");
    const text = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${text}`, line: pending.line } : { text, line: index + 1 };
    if (continued) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text)!;
    instructions.push({ keyword: match[1]!.toUpperCase(), arguments: match[2]!, line: pending.line });
    pending = null;
  });

  const globalArguments = new Map<string, string>();
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.arguments);
      if (!from) throw new Error(`Dockerfile line ${instruction.line}: cannot read FROM ${instruction.arguments}`);
      const base = from[1]!.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced, bare) => {
        const value = globalArguments.get(braced ?? bare);
        if (value === undefined) throw new Error(`Dockerfile line ${instruction.line}: ARG ${braced ?? bare} unset`);
        return value;
      });
      stages.push({ name: from[2] ?? `stage-${stages.length}`, base, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== "ARG") throw new Error(`Dockerfile line ${instruction.line}: only ARG before FROM`);
      const argument = /^(\w+)=(\S+)$/.exec(instruction.arguments);
      if (argument) globalArguments.set(argument[1]!, argument[2]!);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { globalArguments, stages };
}

const dockerfile = parseDockerfile(readRepositoryFile("Dockerfile"));
const RUNTIME_STAGES = ["cpu", "cuda"] as const;

function stage(name: string): Stage {
  const found = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage named ${name}`);
  return found;
}

function instructionsOf(stageName: string, keyword: string): Instruction[] {
  return stage(stageName).instructions.filter((instruction) => instruction.keyword === keyword);
}

/** A stage's instructions together with those of the stages it is built FROM, base first. */
function stageChain(stageName: string): Stage[] {
  const current = stage(stageName);
  const parent = dockerfile.stages.find((candidate) => candidate.name === current.base);
  return parent ? [...stageChain(parent.name), current] : [current];
}

/** ENV of a stage and its parents: "KEY=value" pairs (the Dockerfile writes no values with spaces). */
function environmentOf(stageName: string): Map<string, string> {
  const environment = new Map<string, string>();
  for (const { instructions } of stageChain(stageName)) {
    for (const instruction of instructions.filter((candidate) => candidate.keyword === "ENV")) {
      for (const pair of instruction.arguments.split(/\s+/)) {
        const [key, ...value] = pair.split("=");
        environment.set(key!, value.join("="));
      }
    }
  }
  return environment;
}

function execForm(instruction: Instruction | undefined, what: string): string[] {
  if (!instruction) throw new Error(`missing ${what}`);
  const json = instruction.arguments.replace(/^CMD\s+/, "");
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error(`${what} must use the exec form ["node", ...]`);
  return parsed as string[];
}

/** Options (--from=, --chown=) and source paths of a COPY. */
function copySources(instruction: Instruction): { from: string | null; sources: string[] } {
  const words = instruction.arguments.split(/\s+/);
  const from = words.find((word) => word.startsWith("--from="))?.slice("--from=".length) ?? null;
  const paths = words.filter((word) => !word.startsWith("--"));
  return { from, sources: paths.slice(0, -1) };
}

const NETWORK_FETCH = /\b(curl|wget|apt-get|apt|apk|yum|dnf|npx|git\s+clone)\b|npm\s+(install|i)\b|https?:\/\//;

describe("Dockerfile", () => {
  it("builds the CPU image by default and the CUDA image as a second target", () => {
    expect(dockerfile.stages.at(-1)!.name).toBe("cpu");
    expect(stage("cpu").base).toMatch(/^node:20(\.\d+)*-bookworm-slim$/);
    expect(stage("cuda").base).toMatch(/^nvidia\/cuda:\d+\.\d+\.\d+-runtime-ubuntu\d+\.\d+$/);
    // The CUDA image gets Node.js from the same pinned node image, copied, not downloaded.
    const nodeRuntime = dockerfile.stages.find((candidate) => candidate.base === stage("cpu").base)!;
    expect(
      instructionsOf("cuda", "COPY").some((copy) =>
        copy.arguments.startsWith(`--from=${nodeRuntime.name} /usr/local/bin/node `),
      ),
    ).toBe(true);
  });

  it("pins every base image to a version", () => {
    const external = dockerfile.stages.filter(
      (candidate) => !dockerfile.stages.some((other) => other.name === candidate.base),
    );
    expect(external.length).toBeGreaterThanOrEqual(2);
    for (const { base } of external) {
      const tag = base.split(":")[1] ?? "";
      expect(tag, base).toMatch(/\d+\.\d+/);
      expect(tag, base).not.toMatch(/latest/);
    }
  });

  it("installs production dependencies with npm ci --omit=dev, from the npm registry alone", () => {
    const installs = dockerfile.stages.filter((candidate) =>
      candidate.instructions.some((run) => run.keyword === "RUN" && /\bnpm ci --omit=dev\b/.test(run.arguments)),
    );
    expect(installs.map((install) => install.name)).toEqual(["production-dependencies"]);
    for (const stageName of ["build", "production-dependencies"]) {
      const environment = environmentOf(stageName);
      // onnxruntime-node would fetch its CUDA provider from nuget.org; node-llama-cpp would build llama.cpp.
      expect(environment.get("ONNXRUNTIME_NODE_INSTALL"), stageName).toBe("skip");
      expect(environment.get("NODE_LLAMA_CPP_SKIP_DOWNLOAD"), stageName).toBe("true");
    }
    for (const { name, instructions } of dockerfile.stages) {
      for (const instruction of instructions) {
        if (instruction.keyword === "RUN") expect(instruction.arguments, `${name}: RUN`).not.toMatch(NETWORK_FETCH);
        expect(instruction.keyword, `${name} line ${instruction.line}`).not.toBe("ADD");
      }
    }
  });

  it.each(RUNTIME_STAGES)("%s image: runs as a non-root user, after every RUN", (stageName) => {
    const instructions = stage(stageName).instructions;
    const users = instructions.filter((instruction) => instruction.keyword === "USER");
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!;
    expect(user.arguments.split(":")[0]).not.toMatch(/^(root|0)$/);
    const lastRun = instructions.filter((instruction) => instruction.keyword === "RUN").at(-1);
    expect(instructions.indexOf(user)).toBeGreaterThan(lastRun ? instructions.indexOf(lastRun) : -1);
  });

  it.each(RUNTIME_STAGES)("%s image: health-checks /healthz with node, no curl or wget", (stageName) => {
    const healthcheck = instructionsOf(stageName, "HEALTHCHECK").at(-1);
    const command = execForm(
      healthcheck && { ...healthcheck, arguments: healthcheck.arguments.replace(/^(--\S+\s+)*/, "") },
      "HEALTHCHECK",
    );
    expect(command[0]).toBe("node");
    expect(command.join(" ")).toContain("/healthz");
    expect(command.join(" ")).toContain("process.env.PORT");
    expect(command.join(" ")).not.toMatch(/\b(curl|wget)\b/);
  });

  it.each(RUNTIME_STAGES)("%s image: starts compiled JavaScript with node, offline", (stageName) => {
    const entrypoint = execForm(instructionsOf(stageName, "ENTRYPOINT").at(-1), "ENTRYPOINT");
    const command = execForm(instructionsOf(stageName, "CMD").at(-1), "CMD");
    expect([...entrypoint, ...command]).toEqual(["node", "dist/src/cli/main.js", "serve"]);
    // dist/src/cli/main.js is what `npm run build` makes of src/cli/main.ts. package.json's bin is the small
    // entry that runs the TypeScript CLI through tsx (`npx folio` right after `npm ci`, no build step); the
    // image runs the compiled code instead.
    expect(JSON.parse(readRepositoryFile("package.json")).bin.folio).toBe("bin/folio.js");
    expect(existsSync(path.join(repositoryRoot, "src/cli/main.ts"))).toBe(true);
    expect(JSON.parse(readRepositoryFile("package.json")).scripts.build).toBe("tsc -p tsconfig.build.json");

    const environment = environmentOf(stageName);
    expect(environment.get("FOLIO_MODELS_DIR")).toBe("/models");
    expect(environment.get("FOLIO_DATA_DIR")).toBe("/data");
    expect(environment.get("FOLIO_OFFLINE")).toBe("1");
    expect(environment.get("NODE_ENV")).toBe("production");
    // folio serve alone listens on loopback (#37); a container's loopback is its own.
    expect(environment.get("HOST")).toBe("0.0.0.0");
    expect(instructionsOf(stageName, "VOLUME").map((volume) => volume.arguments)).toEqual(['["/data"]']);
  });

  it.each(RUNTIME_STAGES)(
    "%s image: carries the compiled code, its run-time files and its own binaries",
    (stageName) => {
      const copies = instructionsOf(stageName, "COPY").map(copySources);
      expect(copies).toContainEqual({ from: "build", sources: ["/app/dist"] });
      expect(copies).toContainEqual({ from: `${stageName}-dependencies`, sources: ["/app/node_modules"] });
      // Read at run time from beside package.json (src/answer/generate/prompt-templates.ts, src/http/console-assets.ts).
      for (const source of ["package.json", "prompts", "adapters/console"]) {
        expect(copies).toContainEqual({ from: null, sources: [source] });
      }
      expect(existsSync(path.join(repositoryRoot, "adapters/console/index.html"))).toBe(true);
      expect(
        readdirSync(path.join(repositoryRoot, "prompts")).filter((name) => name.endsWith(".md")).length,
      ).toBeGreaterThan(0);

      const prepare = instructionsOf(`${stageName}-dependencies`, "RUN").map((run) => run.arguments);
      expect(prepare).toEqual([
        `sh docker/prune-node-modules.sh ${stageName} && node docker/verify-node-modules.mjs ${stageName}`,
      ]);
      expect(stage(`${stageName}-dependencies`).base).toBe("production-dependencies");
    },
  );
});

describe("docker/prune-node-modules.sh", () => {
  const llamaCpuPackage = { x64: "linux-x64", arm64: "linux-arm64", arm: "linux-armv7l" }[process.arch as string];
  const runnable = process.platform === "linux" && llamaCpuPackage !== undefined;

  function fakeNodeModules(): string {
    const directory = mkdtempSync(path.join(tmpdir(), "folio-prune-"));
    const modules = path.join(directory, "node_modules");
    const packages = [
      "node-llama-cpp",
      "@node-llama-cpp/linux-x64",
      "@node-llama-cpp/linux-x64-cuda",
      "@node-llama-cpp/linux-x64-cuda-ext",
      "@node-llama-cpp/linux-x64-vulkan",
      "@node-llama-cpp/linux-arm64",
      "@node-llama-cpp/linux-armv7l",
      "onnxruntime-node/bin/napi-v6/linux/x64",
      "onnxruntime-node/bin/napi-v6/linux/arm64",
      "onnxruntime-node/bin/napi-v6/darwin/arm64",
      "onnxruntime-node/bin/napi-v6/win32/x64",
      "onnxruntime-web/dist",
      "onnxruntime-common",
    ];
    for (const name of packages) {
      mkdirSync(path.join(modules, name), { recursive: true });
      writeFileSync(path.join(modules, name, "marker"), name);
    }
    return modules;
  }

  function prune(variant: string, modules: string): string {
    return execFileSync("sh", [path.join(repositoryRoot, "docker/prune-node-modules.sh"), variant, modules], {
      encoding: "utf8",
    });
  }

  it.skipIf(!runnable)("cpu keeps node-llama-cpp's CPU build and this platform's ONNX runtime only", () => {
    const modules = fakeNodeModules();
    try {
      prune("cpu", modules);
      expect(readdirSync(path.join(modules, "@node-llama-cpp"))).toEqual([llamaCpuPackage]);
      expect(readdirSync(path.join(modules, "onnxruntime-node/bin/napi-v6"))).toEqual(["linux"]);
      expect(readdirSync(path.join(modules, "onnxruntime-node/bin/napi-v6/linux"))).toEqual([process.arch]);
      expect(existsSync(path.join(modules, "onnxruntime-web"))).toBe(false);
      expect(existsSync(path.join(modules, "onnxruntime-common/marker"))).toBe(true);
      expect(existsSync(path.join(modules, "node-llama-cpp/marker"))).toBe(true);
    } finally {
      rmSync(path.dirname(modules), { recursive: true, force: true });
    }
  });

  it.skipIf(!runnable || process.arch !== "x64")(
    "cuda keeps the CUDA builds and drops Vulkan and other architectures",
    () => {
      const modules = fakeNodeModules();
      try {
        prune("cuda", modules);
        expect(readdirSync(path.join(modules, "@node-llama-cpp")).sort()).toEqual([
          "linux-x64",
          "linux-x64-cuda",
          "linux-x64-cuda-ext",
        ]);
        expect(readdirSync(path.join(modules, "onnxruntime-node/bin/napi-v6/linux"))).toEqual(["x64"]);
      } finally {
        rmSync(path.dirname(modules), { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!runnable)("refuses an unknown variant and a folder without the packages", () => {
    expect(() => prune("vulkan", "node_modules")).toThrow();
    const empty = mkdtempSync(path.join(tmpdir(), "folio-prune-"));
    try {
      expect(() => prune("cpu", empty)).toThrow();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// .dockerignore

/** Docker's rules: the last pattern that matches a path or one of its parent folders decides. */
function dockerignoreIncludes(patterns: string[], filePath: string): boolean {
  const prefixes = filePath.split("/").map((_, index, parts) => parts.slice(0, index + 1).join("/"));
  let included = true;
  for (const raw of patterns) {
    const negated = raw.startsWith("!");
    const pattern = (negated ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, "");
    const expression = new RegExp(
      `^${pattern
        .split("**/")
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replaceAll("*", "[^/]*")
            .replaceAll("?", "[^/]"),
        )
        .join("(?:.*/)?")}$`,
    );
    if (prefixes.some((prefix) => expression.test(prefix))) included = negated;
  }
  return included;
}

describe(".dockerignore", () => {
  const patterns = readRepositoryFile(".dockerignore")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

  it("keeps secrets, data, models, dependencies, tests and git history out of the build context", () => {
    for (const excluded of [
      "node_modules/pg/package.json",
      ".folio/link-secret",
      ".git/HEAD",
      ".env",
      ".env.production",
      "models/bge-small-en-v1.5/onnx/model.onnx",
      "test/unit/config.test.ts",
      "test/fixtures/sample.pdf",
      "dist/src/cli/main.js",
      "coverage/index.html",
      "bench/run-benchmarks.ts",
      "src/.env",
      "adapters/console/node_modules/x.js",
      "src/.folio/link-secret",
      "folio.log",
    ]) {
      expect(dockerignoreIncludes(patterns, excluded), excluded).toBe(false);
    }
  });

  it("lets in every file the Dockerfile copies from the context", () => {
    const sources = dockerfile.stages
      .flatMap((candidate) => candidate.instructions)
      .filter((instruction) => instruction.keyword === "COPY")
      .map(copySources)
      .filter((copy) => copy.from === null)
      .flatMap((copy) => copy.sources);
    expect(sources.length).toBeGreaterThan(10);
    for (const source of sources) {
      expect(existsSync(path.join(repositoryRoot, source)), `${source} exists`).toBe(true);
      expect(dockerignoreIncludes(patterns, source), source).toBe(true);
    }
    for (const sample of ["src/cli/main.ts", "adapters/console/index.html", "prompts/answer-system.md"]) {
      expect(dockerignoreIncludes(patterns, sample), sample).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// docker-compose.yml

const compose = parseYamlSubset(readRepositoryFile("docker-compose.yml")) as YamlMapping;
const services = compose.services as YamlMapping;
const service = (name: string) => services[name] as YamlMapping;

/** Compose's value with every `${NAME:-default}` replaced by its default: what runs without a .env. */
function withDefaults(value: string): string {
  let previous: string;
  let current = value;
  do {
    previous = current;
    current = current.replace(/(?<!\$)\$\{(\w+):-([^${}]*)\}/g, (_, _name, fallback: string) => fallback);
  } while (current !== previous);
  return current;
}

function strings(value: YamlValue | undefined): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return Object.entries(value).flatMap(([key, entry]) => [key, ...strings(entry)]);
}

describe("docker-compose.yml", () => {
  it("runs folio with PostgreSQL (pgvector) and Qdrant, and an OpenAI-compatible llm behind a profile", () => {
    expect(Object.keys(services).sort()).toEqual(["folio", "llm", "postgres", "qdrant"]);
    expect(service("llm").profiles).toEqual(["llm"]);
    for (const name of ["folio", "postgres", "qdrant"]) expect(service(name).profiles, name).toBeUndefined();
    const environment = service("folio").environment as YamlMapping;
    expect(withDefaults(environment.DATABASE_URL as string)).toBe("postgres://folio:folio@postgres:5432/folio");
    expect(environment.QDRANT_URL).toBe("http://qdrant:6333");
    expect(environment.FOLIO_DATA_DIR).toBe("/data");
    expect(environment.FOLIO_MODELS_DIR).toBe("/models");
    expect(environment.FOLIO_OFFLINE).toBe("1");
    expect(environment.PORT).toBe("3000");
    expect(environment.HOST).toBe("0.0.0.0");
  });

  it("pins every image, Qdrant to the client's minor version", () => {
    const images = Object.fromEntries(
      Object.entries(services)
        .filter(([, definition]) => (definition as YamlMapping).image)
        .map(([name, definition]) => [name, withDefaults((definition as YamlMapping).image as string)]),
    );
    expect(images.postgres).toMatch(/^pgvector\/pgvector:\d+\.\d+\.\d+-pg\d+$/);
    const client = JSON.parse(readRepositoryFile("package.json")).dependencies["@qdrant/js-client-rest"] as string;
    const [major, minor] = client.replace(/^[^\d]*/, "").split(".");
    expect(images.qdrant).toMatch(new RegExp(`^qdrant/qdrant:v${major}\\.${minor}\\.\\d+$`));
    expect(images.llm).toMatch(/^ghcr\.io\/ggml-org\/llama\.cpp:server(-cuda)?-b\d+$/);
    expect(images.folio).toBe("folio:local");
    expect((service("folio").build as YamlMapping).target).toMatch(/^\$\{FOLIO_IMAGE_TARGET:-cpu\}$/);
  });

  it("health-checks every service and starts folio once its stores are healthy", () => {
    for (const [name, definition] of Object.entries(services)) {
      const test = ((definition as YamlMapping).healthcheck as YamlMapping | undefined)?.test;
      expect(Array.isArray(test) && test.length > 1, `${name} healthcheck`).toBe(true);
    }
    expect(strings(service("folio").healthcheck)).toContain(
      "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))",
    );
    expect(strings(service("qdrant").healthcheck).join(" ")).toContain("/readyz");
    expect(strings(service("postgres").healthcheck).join(" ")).toContain("pg_isready");
    expect(service("folio").depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      qdrant: { condition: "service_healthy" },
    });
    expect(service("folio").init).toBe("true");
  });

  it("publishes Folio on 127.0.0.1 only, so the open console is this machine's", () => {
    const ports = service("folio").ports as string[];
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(withDefaults(port)).toMatch(/^127\.0\.0\.1:\d+:3000$/);
    expect(withDefaults((service("folio").environment as YamlMapping).FOLIO_CONSOLE as string)).toBe("open");
    for (const name of ["postgres", "qdrant", "llm"]) expect(service(name).ports, name).toBeUndefined();
  });

  it("works without a .env: the file is optional and every interpolation has a default", () => {
    expect(service("folio").env_file).toEqual([{ path: ".env", required: "false" }]);
    // `env_file: .env` (a plain name) makes compose fail when the file is missing.
    for (const name of ["postgres", "qdrant", "llm"]) expect(service(name).env_file, name).toBeUndefined();
    const source = readRepositoryFile("docker-compose.yml")
      .split(/\r?\n/)
      .filter((line) => !line.trim().startsWith("#"))
      .join("\n");
    const interpolations = [...source.matchAll(/(?<!\$)\$\{([^}]*)\}/g)].map((match) => match[1]!);
    expect(interpolations.length).toBeGreaterThan(10);
    for (const interpolation of interpolations) expect(interpolation).toMatch(/^\w+:-/);
  });

  it("keeps data in named volumes and mounts the models read-only at /models", () => {
    expect(Object.keys(compose.volumes as YamlMapping).sort()).toEqual(["folio-data", "postgres-data", "qdrant-data"]);
    const defaults = (name: string) => (service(name).volumes as string[]).map(withDefaults);
    expect(defaults("folio")).toEqual(["folio-data:/data", "./models:/models:ro"]);
    expect(service("postgres").volumes).toEqual(["postgres-data:/var/lib/postgresql/data"]);
    expect(service("qdrant").volumes).toEqual(["qdrant-data:/qdrant/storage"]);
    expect(defaults("llm")).toEqual(["./models:/models:ro"]);
    expect(service("llm").volumes).toEqual([(service("folio").volumes as string[])[1]]);
  });

  it("docker-compose.cuda.yml switches folio to the CUDA image with a GPU", () => {
    const override = parseYamlSubset(readRepositoryFile("docker-compose.cuda.yml")) as YamlMapping;
    const folio = (override.services as YamlMapping).folio as YamlMapping;
    expect((folio.build as YamlMapping).target).toBe("cuda");
    expect(withDefaults(folio.image as string)).toBe("folio:local-cuda");
    expect(folio.deploy).toEqual({
      resources: { reservations: { devices: [{ driver: "nvidia", count: "1", capabilities: ["gpu"] }] } },
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// .env.example

function exampleVariables(): Map<string, string> {
  const variables = new Map<string, string>();
  for (const line of readRepositoryFile(".env.example").split(/\r?\n/)) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`.env.example: "${line}" is not NAME=value`);
    if (variables.has(match[1]!)) throw new Error(`.env.example lists ${match[1]} twice`);
    variables.set(match[1]!, match[2]!);
  }
  return variables;
}

/** Every name Folio's configuration declares (src/config/config-variables.ts): the names loadConfig reads. */
function configVariablesInSource(): Set<string> {
  return new Set(Object.keys(CONFIG_VARIABLES));
}

/** process.env reads in the code that runs in production (not tests, benchmarks or scripts). */
function processEnvironmentReads(): Set<string> {
  const names = new Set<string>();
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith(".ts")) {
        const source = readFileSync(full, "utf8");
        for (const match of source.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*"([A-Z][A-Z0-9_]*)"\s*\])/g)) {
          names.add((match[1] ?? match[2])!);
        }
      }
    }
  };
  for (const directory of ["src", "adapters", "ingestion"]) visit(path.join(repositoryRoot, directory));
  return names;
}

/** The names loadConfig actually looks up, recorded through a Proxy, over environments that open every branch. */
function configVariablesRead(): Set<string> {
  const read = new Set<string>();
  const scenarios: Environment[] = [
    {},
    {
      DATABASE_URL: "postgres://folio:folio@db:5432/folio",
      QDRANT_URL: "http://qdrant:6333",
      QDRANT_API_KEY: "key",
      LLM_BASE_URL: "http://llm:8080",
      LLM_MODEL: "model",
      SLACK_BOT_TOKEN: "xoxb-1",
      SLACK_SIGNING_SECRET: "secret",
      MICROSOFT_APP_ID: "app",
      MICROSOFT_APP_PASSWORD: "password",
      MICROSOFT_APP_TENANT_ID: "tenant",
      FOLIO_LINK_SECRET: "x".repeat(40),
    },
    { FOLIO_LLM_MODEL: "hf:owner/repo/model.gguf", SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1" },
  ];
  for (const scenario of scenarios) {
    const recording = new Proxy(scenario, {
      get(target, key) {
        if (typeof key === "string") read.add(key);
        return target[key as string];
      },
    });
    try {
      loadConfig(recording, "/srv/folio");
    } catch {
      // Some scenarios are invalid on purpose of reaching a branch; only the names read matter here.
    }
  }
  return read;
}

describe(".env.example", () => {
  const example = exampleVariables();

  it("lists every variable Folio's configuration reads", () => {
    const inSource = configVariablesInSource();
    const read = configVariablesRead();
    // The source scan must see everything loadConfig looks up, or it would miss what it cannot see.
    for (const name of read) expect(inSource, `config reads ${name}`).toContain(name);
    expect(inSource.size).toBeGreaterThan(40);
    const missing = [...inSource, ...processEnvironmentReads()].filter((name) => !example.has(name));
    expect(missing, "add these to .env.example").toEqual([]);
  });

  it("lists nothing that neither Folio nor docker-compose.yml reads", () => {
    const composeSource = readRepositoryFile("docker-compose.yml");
    const composeNames = new Set([...composeSource.matchAll(/(?<!\$)\$\{(\w+)/g)].map((match) => match[1]!));
    const known = new Set([...configVariablesInSource(), ...processEnvironmentReads(), ...composeNames]);
    expect([...example.keys()].filter((name) => !known.has(name))).toEqual([]);
  });

  it("is a valid configuration as it stands, so `cp .env.example .env` starts the defaults", () => {
    expect([...example.values()].filter((value) => value !== "")).toEqual([]);
    expect(() => loadConfig(Object.fromEntries(example), "/srv/folio")).not.toThrow();
    expect(loadConfig(Object.fromEntries(example), "/srv/folio").storage).toEqual({
      kind: "embedded",
      dataDir: "/srv/folio/.folio",
    });
  });
});
