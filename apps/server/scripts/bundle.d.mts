/** See bundle.mjs. */
export function bundleServer(options: { entryPoint: string; outfile: string }): Promise<void>;
