/**
 * Which questionnaire jobs of this process run now and which wait: at most `maxRunning` at once, and
 * at most `maxRunningPerSpace` of one space, so thirty submissions answer a few at a time instead of
 * crowding out people's questions, and one team's pile cannot hold every slot. The rest wait in the
 * order they came; a freed slot goes to the first waiting job whose space is under its own cap. Each
 * waiting job knows how many wait before it ("queued, 3 ahead"). Pure bookkeeping: the service
 * (questionnaire-service.ts) starts what this says may start.
 */

export type QueuedJob = { id: string; spaceId: string };

export type QuestionnaireJobQueue = {
  /** Adds a job; `start` is called once it may run — at once when a slot is free. */
  enqueue(job: QueuedJob, start: () => void): void;
  /** A running job ended: its slot goes to the next job that may take it. */
  release(id: string): void;
  /** Takes a waiting job out (cancelled, or the process stops); false when it was not waiting. */
  remove(id: string): boolean;
  /** Jobs waiting before this one; null when it is not waiting. */
  ahead(id: string): number | null;
  /** Calls `listener` whenever waiting jobs move up or start; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  readonly running: number;
  readonly waiting: number;
};

export type JobQueueLimits = { maxRunning: number; maxRunningPerSpace: number };

export function createQuestionnaireJobQueue(limits: JobQueueLimits): QuestionnaireJobQueue {
  const waiting: Array<QueuedJob & { start: () => void }> = [];
  const running = new Map<string, string>();
  const listeners = new Set<() => void>();

  const runningIn = (spaceId: string) => {
    let count = 0;
    for (const space of running.values()) if (space === spaceId) count += 1;
    return count;
  };

  const changed = () => {
    for (const listener of [...listeners]) listener();
  };

  /** Starts every waiting job a slot allows, in order. */
  const fill = () => {
    for (let index = 0; index < waiting.length && running.size < limits.maxRunning; ) {
      const job = waiting[index];
      if (job && runningIn(job.spaceId) < limits.maxRunningPerSpace) {
        waiting.splice(index, 1);
        running.set(job.id, job.spaceId);
        job.start();
      } else {
        index += 1;
      }
    }
  };

  return {
    enqueue(job, start) {
      if (running.has(job.id) || waiting.some((entry) => entry.id === job.id)) return;
      waiting.push({ ...job, start });
      fill();
    },
    release(id) {
      if (!running.delete(id)) return;
      fill();
      changed();
    },
    remove(id) {
      const index = waiting.findIndex((entry) => entry.id === id);
      if (index < 0) return false;
      waiting.splice(index, 1);
      changed();
      return true;
    },
    ahead(id) {
      const index = waiting.findIndex((entry) => entry.id === id);
      return index < 0 ? null : index;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get running() {
      return running.size;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
