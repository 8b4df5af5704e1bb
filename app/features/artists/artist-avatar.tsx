import { fileUrl } from "~/lib/file-url";
import { initials } from "./format";

const sizes = {
  sm: "h-12 w-12 text-base",
  md: "h-16 w-16 text-lg",
  lg: "h-24 w-24 text-2xl sm:h-28 sm:w-28",
} as const;

/** The artist's photo, or their initials on a coloured disc. */
export function ArtistAvatar({
  name,
  avatarPath,
  size = "md",
}: {
  name: string;
  avatarPath: string | null;
  size?: keyof typeof sizes;
}) {
  if (avatarPath) {
    const px = size === "lg" ? 112 : size === "md" ? 64 : 48;
    return (
      <img
        src={fileUrl(avatarPath)}
        alt=""
        width={px}
        height={px}
        // Lists (discovery, landing) load the pictures as they scroll into view.
        loading={size === "lg" ? undefined : "lazy"}
        decoding="async"
        className={`${sizes[size]} shrink-0 rounded-full object-cover`}
      />
    );
  }
  return (
    <span
      aria-hidden
      className={`${sizes[size]} flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700`}
    >
      {initials(name)}
    </span>
  );
}
