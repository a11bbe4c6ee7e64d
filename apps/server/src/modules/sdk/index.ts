// The SDK module's entry: the bot SDK's tarball served to bot makers (docs/decisions/922-sdk-package.md).
export { sdkRoutes } from './sdk.routes.ts';
