/**
 * Model download progress on stderr for the command line (stdout stays for results and --json).
 */
import { type DownloadProgress, describeProgress } from "../models/download-progress.js";

/** One self-overwriting line on a terminal; plain lines (throttled upstream) when stderr is a file or pipe. */
export function createProgressPrinter() {
  const terminal = process.stderr.isTTY === true;
  let shown = false;
  return {
    show(progress: DownloadProgress) {
      const line = `… ${progress.model}: ${progress.file} ${describeProgress(progress)}`;
      process.stderr.write(terminal ? `\r\x1b[K${line}` : `${line}\n`);
      shown = terminal;
    },
    clear() {
      if (shown) process.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
