/** Asks the OS for a free port on 127.0.0.1 (listen on 0, read the port, close). */
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("could not find a free port on 127.0.0.1");
  return address.port;
}
