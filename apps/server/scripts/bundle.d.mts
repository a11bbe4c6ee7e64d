/** See bundle.mjs. */
export function bundleServer(options: { entryPoint: string; outfile: string }): Promise<{
  /** What the module imports at run time from node_modules or Node itself (`node:fs`, `pg`…). */
  externalImports: string[];
}>;
/** The command-line tasks compiled to dist/cli/<name>.js. */
export const CLI_TASKS: readonly string[];
