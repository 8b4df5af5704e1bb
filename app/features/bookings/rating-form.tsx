import Star from "lucide-react/icons/star";
import { useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { TextareaField } from "~/components/ui/textarea-field";
import type { FormReply } from "~/lib/form";
import { usePending } from "~/lib/use-pending";

/** Stars 1–5 (required) and an optional review; a radio group, so keyboards and readers work. */
export function RatingForm({ bookingId, artistName }: { bookingId: string; artistName: string }) {
  const fetcher = useFetcher<FormReply>();
  const busy = usePending({ fetcher });
  const [rating, setRating] = useState(0);
  const error = fetcher.data?.fieldErrors?.rating ?? fetcher.data?.formError;
  return (
    <fetcher.Form method="post" action={`/bookings/${bookingId}`} className="space-y-3">
      <input type="hidden" name="intent" value="rate" />
      <fieldset>
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
      <Button type="submit" disabled={busy}>
        Submit Rating
      </Button>
    </fetcher.Form>
  );
}
