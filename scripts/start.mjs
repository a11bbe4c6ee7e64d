// `npm start`: builds what was never built or is stale, then runs the server IN THIS PROCESS. The npm
// script `exec`s node, so SIGTERM and SIGINT sent to `npm start` reach the server itself (graceful
// shutdown), with nothing left behind.
import { pathToFileURL } from 'node:url';
import { ensureBuilt, serverMain } from './ensure-built.mjs';

ensureBuilt({ forced: process.argv.includes('--build') });
await import(pathToFileURL(serverMain).href);
