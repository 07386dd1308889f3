/**
 * Lowers the scheduling priority of the calling worker thread, so batch work on it (parsing a 500-page
 * filing is about 15 s of one core) gives way to the main thread, which answers Slack, Teams and console
 * requests. Without it, on a machine whose cores are busy, the main thread waits in the run queue behind
 * the parser: 50–100 ms at a time on a shared 2-core machine, with the main thread itself running nothing.
 *
 * Linux only: there a nice value belongs to a thread, and setpriority(PRIO_PROCESS, 0) names the calling
 * thread. Elsewhere it names the whole process, main thread included, so nothing is changed there.
 */
import { getPriority, setPriority } from "node:os";

/**
 * Nice value for batch worker threads: a third of a normal thread's weight when both want a core. Enough for
 * the main thread to be picked first (while a 500-page filing parsed, its run-queue waits roughly halved, at
 * nice 5 as at nice 10); not so low that a parse starves behind a busy model and passes its wall-clock limit.
 */
export const BATCH_THREAD_NICENESS = 5;

/**
 * Sets the calling thread's nice value to `niceness` unless it is already at least that low in priority
 * (raising priority again needs privileges a bot does not have). Returns the thread's nice value after the
 * call, or null where threads have no priority of their own or the system refuses the call.
 */
export function lowerThreadPriority(niceness: number): number | null {
  if (process.platform !== "linux") return null;
  try {
    // 0: the calling thread (Linux), not the process.
    if (getPriority(0) < niceness) setPriority(0, niceness);
    return getPriority(0);
  } catch (error) {
    // A sandbox that forbids setpriority costs requests some latency; it must not cost the worker its life.
    if (error instanceof Error && "syscall" in error) return null;
    throw error;
  }
}
