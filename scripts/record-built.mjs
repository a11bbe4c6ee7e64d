// `node scripts/record-built.mjs web|server|sdk`: run after a workspace's build (its `postbuild`), so
// that `npm start` knows which sources the built files came from (scripts/ensure-built.mjs).
import { BUILT_PARTS, recordBuilt } from './ensure-built.mjs';

const name = process.argv[2];
if (!(name in BUILT_PARTS)) {
  console.error(`usage : node scripts/record-built.mjs ${Object.keys(BUILT_PARTS).join('|')}`);
  process.exit(2);
}
recordBuilt(name);
