/**
 * Share a link with the device's share sheet, or copy it. Resolves to what happened so the caller
 * can toast; 'cancelled' when the person closed the share sheet.
 */
export async function shareOrCopy(url: string, title: string) {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title, url });
      return "shared" as const;
    } catch (error) {
      if ((error as DOMException).name === "AbortError") return "cancelled" as const;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "copied" as const;
  } catch {
    return "failed" as const;
  }
}
