/** Whether the app answers at `appUrl` (its /healthz), within two seconds: scripts that open the
 * embedded database refuse to while the app holds it. */
export async function isAnswering(appUrl: URL): Promise<boolean> {
  try {
    const response = await fetch(new URL("/healthz", appUrl), {
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
