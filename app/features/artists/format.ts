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
