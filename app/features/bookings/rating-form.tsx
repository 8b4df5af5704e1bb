import Star from "lucide-react/icons/star";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { TextareaField } from "~/components/ui/textarea-field";
import type { FormReply } from "~/lib/form";
import { pickedRadio, useEarlyInput } from "~/lib/use-early-input";
import { usePending } from "~/lib/use-pending";

/**
 * "Show the venue on {artist}'s public history", off by default: the client decides whether the
 * logged gig shows its venue publicly or only "{event type}, {city}" (docs/product.md, "Ratings").
 */
export function ShowVenueCheckbox({
  id,
  artistName,
  defaultChecked = false,
}: {
  id: string;
  artistName: string;
  defaultChecked?: boolean;
}) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        name="showVenue"
        value="on"
        defaultChecked={defaultChecked}
        className="mt-1 h-4 w-4 shrink-0 accent-brand-600"
        aria-describedby={`${id}-hint`}
      />
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium wrap-anywhere">
          Show the venue on {artistName}'s public history
        </label>
        <p id={`${id}-hint`} className="text-slate-600">
          Unticked, the public sees only the event type and the city. You and the artist always see
          the venue.
        </p>
      </div>
    </div>
  );
}

/** Stars 1–5 (required) and an optional review; a radio group, so keyboards and readers work. */
export function RatingForm({
  bookingId,
  artistName,
  action = `/bookings/${bookingId}`,
}: {
  bookingId: string;
  artistName: string;
  /** Where it posts: the booking's page, or the one-click rating page of a mail's link. */
  action?: string;
}) {
  const fetcher = useFetcher<FormReply>();
  const busy = usePending({ fetcher });
  const [rating, setRating] = useState(0);
  const stars = useRef<HTMLFieldSetElement>(null);
  useEarlyInput(stars, (group) => setRating(Number(pickedRadio(group) ?? 0)));
  const error = fetcher.data?.fieldErrors?.rating ?? fetcher.data?.formError;
  return (
    <fetcher.Form method="post" action={action} className="space-y-3">
      <input type="hidden" name="intent" value="rate" />
      <fieldset ref={stars}>
        <legend className="text-sm font-medium">How was {artistName}?</legend>
        <div className="mt-2 flex gap-1">
          {[1, 2, 3, 4, 5].map((n) => (
            <label
              key={n}
              className="cursor-pointer rounded p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
            >
              <input
                type="radio"
                name="rating"
                value={n}
                className="sr-only"
                checked={rating === n}
                onChange={() => setRating(n)}
              />
              <Star
                aria-hidden
                className={`h-8 w-8 ${n <= rating ? "fill-accent-500 text-accent-500" : "text-slate-300"}`}
              />
              <span className="sr-only">
                {n} {n === 1 ? "star" : "stars"}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <FormError>{error}</FormError>
      <TextareaField label="Review (optional)" name="review" rows={3} />
      <ShowVenueCheckbox id={`show-venue-${bookingId}`} artistName={artistName} />
      <Button type="submit" disabled={busy}>
        Submit Rating
      </Button>
    </fetcher.Form>
  );
}
