/** Lets non-React code (the API client, session actions) navigate with the app's router once it exists. */
type Navigate = (to: string, options?: { replace?: boolean }) => Promise<void> | void;

let navigateImpl: Navigate = (to) => window.location.assign(to);

export function setNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export async function navigateTo(to: string, options?: { replace?: boolean }): Promise<void> {
  await navigateImpl(to, options);
}
