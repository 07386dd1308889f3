/**
 * Progress of one model file's download, and the throttle that keeps a fast download from flooding a
 * terminal or a log with one line per network chunk.
 */
export type DownloadProgress = {
  model: string;
  /** The file's path inside the model's repository. */
  file: string;
  receivedBytes: number;
  /** Null when neither the hub nor the registry says how big the file is. */
  totalBytes: number | null;
};

export type ProgressListener = (progress: DownloadProgress) => void;

/** Reports the first and the final update always, others at most once per `intervalMs`. */
export function throttleProgress(
  listener: ProgressListener,
  intervalMs: number,
  now: () => number = Date.now,
): { report(progress: DownloadProgress, final?: boolean): void } {
  let last = Number.NEGATIVE_INFINITY;
  return {
    report(progress, final = false) {
      const time = now();
      if (!final && time - last < intervalMs) return;
      last = time;
      listener(progress);
    },
  };
}

/** "12.3/34.0 MB (36%)" (kB for files under a megabyte), for the terminal and the log. */
export function describeProgress(progress: DownloadProgress): string {
  const large = (progress.totalBytes ?? progress.receivedBytes) >= 1_000_000;
  const unit = large ? "MB" : "kB";
  const amount = (bytes: number) => (bytes / (large ? 1_000_000 : 1_000)).toFixed(1);
  if (progress.totalBytes === null || progress.totalBytes === 0) return `${amount(progress.receivedBytes)} ${unit}`;
  const percent = Math.floor((100 * progress.receivedBytes) / progress.totalBytes);
  return `${amount(progress.receivedBytes)}/${amount(progress.totalBytes)} ${unit} (${percent}%)`;
}
