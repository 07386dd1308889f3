#!/usr/bin/env node
// An HTTPS (CONNECT) proxy that lets through only the hosts named on its command line and refuses every
// other, as a company firewall that reaches the npm registry but not nuget.org or the Hugging Face hub.
// Used by .ci/first-run-check. Prints "listening <port>" once ready, then "allowed <host>" or
// "refused <host>" for each connection asked for.
//
//   node .ci/allowlist-proxy.mjs registry.npmjs.org
import { createServer } from "node:http";
import { connect } from "node:net";

const allowed = new Set(process.argv.slice(2));
const server = createServer((request, response) => {
  // Plain-HTTP requests through the proxy: nothing Folio's install needs.
  process.stdout.write(`refused ${request.headers.host ?? request.url}\n`);
  response.writeHead(403).end();
});
server.on("connect", (request, client, head) => {
  const [host = "", port = "443"] = (request.url ?? "").split(":");
  if (!allowed.has(host)) {
    process.stdout.write(`refused ${host}\n`);
    client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    return;
  }
  process.stdout.write(`allowed ${host}\n`);
  const upstream = connect(Number(port), host, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", () => client.destroy());
  client.on("error", () => upstream.destroy());
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : ""}\n`);
});
