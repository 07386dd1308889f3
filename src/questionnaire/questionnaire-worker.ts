/**
 * Worker-thread entry for questionnaire files (questionnaire-worker-pool.ts runs it under a heap cap,
 * a time limit and the memory watchdog): reads a questionnaire or approved-answers file into its grid,
 * or writes a job's filled copy from the original bytes. Both open the file the user sent, so both run
 * here, where a file the reader's limits did not foresee can only cost this thread.
 */
import { serveBoundedTasks } from "../../ingestion/serve-bounded-tasks.js";
import type { QuestionnaireWorkerTask } from "./questionnaire-worker-pool.js";
import { readQuestionnaireGrid } from "./read/read-questionnaire-grid.js";
import { writeFilledCopy } from "./write/write-filled-copy.js";

serveBoundedTasks<QuestionnaireWorkerTask>(
  async (task) => {
    if (task.kind === "read") {
      return { result: await readQuestionnaireGrid(task.bytes, task.fileName, task.limits) };
    }
    const copy = await writeFilledCopy(task.input, task.limits);
    // The copy's bytes are moved back, not copied.
    const bytes =
      copy.bytes.byteOffset === 0 && copy.bytes.byteLength === copy.bytes.buffer.byteLength
        ? copy.bytes
        : copy.bytes.slice();
    return { result: { ...copy, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
  },
  {
    code: "questionnaire_unreadable",
    message:
      "Folio could not read this file (the reader failed) — save it again in its original program and upload it again.",
  },
);
