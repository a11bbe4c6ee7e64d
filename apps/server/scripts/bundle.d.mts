/** See bundle.mjs. */
export function bundleServer(options: { entryPoint: string; outfile: string }): Promise<{
  /** What the module imports at run time from node_modules or Node itself (`node:fs`, `pg`…). */
  externalImports: string[];
}>;
