#!/usr/bin/env node
/**
 * The `folio` command that `npm ci` (npx folio) and a global install put on the PATH: it registers tsx's
 * loader in this process and runs the TypeScript CLI, as `npm run folio` does with `node --import tsx`,
 * so there is no build step to forget. Worker threads load tsx themselves (src/workers/start-worker.ts).
 */
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
