/**
 * Robustness report (issue #3): every file of robustness-pdfjs, robustness-pdf-misc and
 * robustness-office through the real parse path (worker pool with the default time and heap limits,
 * tokenizer-measured chunking), then a markdown table of outcomes per code, the files whose outcome
 * differs from what their manifest category implies, the slowest files, the main event loop's delay
 * while parsing, and peak memory.
 *
 *   npx tsx bench/robustness-report.ts [--concurrency N] [--verbose]
 */
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { closeParseWorkers } from "../ingestion/run-in-worker.js";
import {
  expectedOutcome,
  type FileOutcome,
  listRobustnessFiles,
  runFiles,
  SPECIFIC_REJECTION_CODES,
} from "../test/support/robustness-corpus.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const concurrency = Number(argument("--concurrency") ?? 2);
const verbose = process.argv.includes("--verbose");

function label(outcome: FileOutcome): string {
  return `${outcome.file.corpus.replace("robustness-", "")}/${outcome.file.relativePath}`;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|").replace(/\s+/g, " ");
}

async function main(): Promise<void> {
  const files = listRobustnessFiles();
  // Start the parse workers (and their tokenizer) first, so no file's time includes a cold start.
  const warmUp = files.filter((file) => file.fileName.endsWith(".csv")).slice(0, concurrency);
  await runFiles(warmUp, { concurrency });
  const started = performance.now();
  process.stderr.write(`Running ${files.length} files, ${concurrency} at a time…\n`);
  const { outcomes, eventLoopMaxDelayMs, eventLoopP99DelayMs, eventLoopUtilization } = await runFiles(files, {
    concurrency,
    onOutcome: (outcome) => {
      if (verbose)
        process.stderr.write(
          `${outcome.code.padEnd(20)} ${seconds(outcome.milliseconds).padStart(8)}  ${label(outcome)}\n`,
        );
    },
  });
  const wallMs = performance.now() - started;
  await closeParseWorkers();

  const byCode = new Map<string, FileOutcome[]>();
  for (const outcome of outcomes) byCode.set(outcome.code, [...(byCode.get(outcome.code) ?? []), outcome]);
  const codes = [...byCode.keys()].sort((a, b) => {
    if (a === "parsed") return -1;
    if (b === "parsed") return 1;
    return (byCode.get(b)?.length ?? 0) - (byCode.get(a)?.length ?? 0) || a.localeCompare(b);
  });

  const lines: string[] = [];
  lines.push(`# Robustness report — ${files.length} files`, "");
  lines.push("| Outcome | Count | Specific? | Examples | Message (first) |");
  lines.push("|---|---:|---|---|---|");
  for (const code of codes) {
    const group = byCode.get(code) ?? [];
    const specific = code === "parsed" ? "—" : SPECIFIC_REJECTION_CODES.has(code) ? "yes" : "**NO**";
    const examples = group
      .slice(0, 4)
      .map((outcome) => outcome.file.fileName)
      .join(", ");
    const message = code === "parsed" ? "" : (group[0]?.message ?? "");
    lines.push(
      `| ${code} | ${group.length} | ${specific} | ${escapeCell(examples)}${group.length > 4 ? ", …" : ""} | ${escapeCell(message)} |`,
    );
  }

  const perCorpus = new Map<string, Map<string, number>>();
  for (const outcome of outcomes) {
    const counts = perCorpus.get(outcome.file.corpus) ?? new Map<string, number>();
    counts.set(outcome.code, (counts.get(outcome.code) ?? 0) + 1);
    perCorpus.set(outcome.file.corpus, counts);
  }
  lines.push("", "| Corpus | Files | Outcomes |", "|---|---:|---|");
  for (const [corpus, counts] of perCorpus) {
    const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
    const summary = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([code, count]) => `${code} ${count}`)
      .join(", ");
    lines.push(`| ${corpus} | ${total} | ${summary} |`);
  }

  const generic = outcomes.filter(
    (outcome) => outcome.code !== "parsed" && !SPECIFIC_REJECTION_CODES.has(outcome.code),
  );
  const unexpected = outcomes.filter((outcome) => {
    const expected = expectedOutcome(outcome.file);
    return expected !== null && expected !== outcome.code;
  });
  lines.push("", `## Generic or unknown failures: ${generic.length}`);
  for (const outcome of generic) {
    lines.push(
      `- ${label(outcome)}: ${outcome.code} — ${outcome.message}${outcome.reason ? ` (${outcome.reason})` : ""}`,
    );
  }
  lines.push(
    "",
    `## Outcome differs from the manifest category: ${unexpected.length} (of ${outcomes.filter((o) => expectedOutcome(o.file) !== null).length} with a pinned outcome)`,
  );
  for (const outcome of unexpected) {
    lines.push(
      `- ${label(outcome)} [${outcome.file.category}: ${outcome.file.note}]: expected ${expectedOutcome(outcome.file)}, got ${outcome.code} — ${outcome.message}`,
    );
  }

  const slowest = [...outcomes].sort((a, b) => b.milliseconds - a.milliseconds).slice(0, 5);
  lines.push("", "## Slowest files", "", "| File | Outcome | Time | Pages | Chunks |", "|---|---|---:|---:|---:|");
  for (const outcome of slowest) {
    lines.push(
      `| ${label(outcome)} | ${outcome.code} | ${seconds(outcome.milliseconds)} | ${outcome.pages ?? "—"} | ${outcome.chunks} |`,
    );
  }
  const heaviest = [...outcomes].sort((a, b) => b.rssGrowthMb - a.rssGrowthMb).slice(0, 3);
  const heapiest = [...outcomes].sort((a, b) => (b.workerPeakHeapMb ?? 0) - (a.workerPeakHeapMb ?? 0)).slice(0, 3);
  const usage = process.resourceUsage();
  lines.push(
    "",
    "## Resources",
    "",
    `- Wall time: ${seconds(wallMs)} for ${files.length} files (${concurrency} parse workers at a time).`,
    `- Peak RSS of the process (process.resourceUsage().maxRSS, worker threads included): ${Math.round(usage.maxRSS / 1024)} MB.`,
    `- Largest RSS rise while one file was parsing (sampled every 25 ms; RSS rarely shrinks, so a file that needs no more than an earlier one shows no rise${concurrency > 1 ? "; the other worker's file shares the figure" : ""}): ${heaviest
      .map((outcome) => `${label(outcome)} +${outcome.rssGrowthMb} MB (to ${outcome.peakRssMb} MB)`)
      .join("; ")}.`,
    `- Parse worker heap, highest used heap sampled per file (every 20 ms inside the worker; includes the loaded parsers, the tokenizer and garbage not yet collected from earlier files): ${heapiest
      .map((outcome) => `${label(outcome)} ${outcome.workerPeakHeapMb} MB`)
      .join("; ")}.`,
    `- Main event loop delay while parsing: max ${eventLoopMaxDelayMs.toFixed(1)} ms, p99 ${eventLoopP99DelayMs.toFixed(1)} ms; main thread busy ${(eventLoopUtilization * 100).toFixed(1)}% of the run.`,
    `- Limits: ${seconds(DEFAULT_PARSE_LIMITS.timeMs)} and ${DEFAULT_PARSE_LIMITS.maxHeapMb} MB heap per file (DEFAULT_PARSE_LIMITS); the workers were started before timing.`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

await main();
