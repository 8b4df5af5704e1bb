import { useNavigation } from "react-router";

type FetcherLike = { state: string; formData?: FormData };

/**
 * The one pending hook: true while this page's form (or the given fetcher) is being submitted,
 * optionally only for one `intent`. Buttons show progress with it; they are never rendered
 * disabled before JavaScript has loaded.
 */
export function usePending(options: { intent?: string; fetcher?: FetcherLike } = {}): boolean {
  const navigation = useNavigation();
  const source: FetcherLike = options.fetcher ?? navigation;
  if (source.state === "idle" || !source.formData) return false;
  if (!options.fetcher && navigation.state !== "submitting") return false;
  return options.intent === undefined || source.formData.get("intent") === options.intent;
}
