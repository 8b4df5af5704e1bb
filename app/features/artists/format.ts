import { rupeesToPaise } from "~/lib/money";
import { formatPaise } from "~/lib/money-text";

/** 'New' when an artist has no rating yet, otherwise one decimal. */
export function formatRating(rating: number) {
  return rating > 0 ? rating.toFixed(1) : "New";
}

export function initials(name: string) {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase())
      .join("") || "?"
  );
}

/**
 * A card's price: the hourly rate; for an artist who quotes each booking, "From ₹…" with their
 * starting price (decision 064), or only that they quote.
 */
export function priceText(artist: { hourlyRate: number | null; startingPrice: number | null }) {
  if (artist.hourlyRate !== null)
    return `${formatPaise(rupeesToPaise(artist.hourlyRate))} per hour`;
  if (artist.startingPrice !== null)
    return `From ${formatPaise(rupeesToPaise(artist.startingPrice))}`;
  return "Quotes each booking";
}
