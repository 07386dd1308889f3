/**
 * A port that cannot be had is a configuration problem with one fix: say which port and what to set.
 * `checkPortAvailable` asks before anything slow happens (storage migrations, model loading), so a
 * busy port is the first and only thing `folio serve` reports.
 */
import { createServer } from "node:net";
import { FolioError } from "../errors.js";

export function describeListenError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === "EADDRINUSE") {
    return new FolioError(
      "port_in_use",
      `port ${port} is in use — set PORT to a free port (or stop the other program, perhaps another folio serve)`,
      { cause: error },
    );
  }
  if (error.code === "EACCES") {
    return new FolioError("port_not_allowed", `port ${port} needs privileges this user lacks — set PORT above 1024`, {
      cause: error,
    });
  }
  return error;
}

/**
 * Listens on the port for a moment and lets it go. Another program may still take it before the real
 * server listens; that server then reports the same error, only later.
 */
export function checkPortAvailable(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => reject(describeListenError(error, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
