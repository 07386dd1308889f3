import { describe, expect, it } from "vitest";
import { createQuestionnaireJobQueue } from "../../src/questionnaire/jobs/questionnaire-job-queue.js";

describe("questionnaire job queue", () => {
  it("starts up to the global and per-space caps, in order, and gives a freed slot to the first job that may take it", () => {
    const queue = createQuestionnaireJobQueue({ maxRunning: 2, maxRunningPerSpace: 1 });
    const started: string[] = [];
    const add = (id: string, spaceId: string) => queue.enqueue({ id, spaceId }, () => started.push(id));
    add("a1", "a");
    add("a2", "a");
    add("b1", "b");
    add("c1", "c");
    add("a3", "a");
    expect(started).toEqual(["a1", "b1"]);
    expect(["a1", "a2", "b1", "c1", "a3"].map((id) => queue.ahead(id))).toEqual([null, 0, null, 1, 2]);
    expect([queue.running, queue.waiting]).toEqual([2, 3]);

    queue.release("b1");
    // a2 waits for a1 (its space's one slot); c1 takes b1's.
    expect(started).toEqual(["a1", "b1", "c1"]);
    expect(["a2", "a3"].map((id) => queue.ahead(id))).toEqual([0, 1]);

    queue.release("a1");
    expect(started).toEqual(["a1", "b1", "c1", "a2"]);
    expect(queue.ahead("a3")).toBe(0);
  });

  it("takes out a waiting job, tells listeners when places change, and ignores a job it already holds", () => {
    const queue = createQuestionnaireJobQueue({ maxRunning: 1, maxRunningPerSpace: 1 });
    const started: string[] = [];
    let changes = 0;
    queue.onChange(() => {
      changes += 1;
    });
    queue.enqueue({ id: "j1", spaceId: "s" }, () => started.push("j1"));
    queue.enqueue({ id: "j2", spaceId: "t" }, () => started.push("j2"));
    queue.enqueue({ id: "j3", spaceId: "t" }, () => started.push("j3"));
    queue.enqueue({ id: "j1", spaceId: "s" }, () => started.push("j1 again"));
    expect([queue.remove("j2"), queue.remove("j2"), queue.remove("j1")]).toEqual([true, false, false]);
    expect(queue.ahead("j3")).toBe(0);
    queue.release("j1");
    queue.release("j1");
    expect(started).toEqual(["j1", "j3"]);
    expect(changes).toBe(2);
  });
});
