import { z } from "zod";

/** The Settings tab's form, checked the same way in the browser and on the server. */
export const PortfolioSettingsSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Portfolio title is required")
    .max(120, "Portfolio title can be at most 120 characters"),
  description: z
    .string()
    .trim()
    .max(1000, "Description can be at most 1000 characters")
    .transform((v) => (v === "" ? null : v)),
  isPublic: z
    .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
    .optional()
    .transform((v) => v === "on" || v === "true"),
});
export type PortfolioSettings = z.infer<typeof PortfolioSettingsSchema>;

const mediaIds = z
  .array(z.uuid("Unknown media item"))
  .min(1, "Select at least one media item")
  .max(500, "Select at most 500 media items at once");

/** Feature or unfeature one or several media items (the star and the bulk bar). */
export const FeatureMediaSchema = z.object({
  featured: z.enum(["true", "false"]).transform((v) => v === "true"),
  mediaIds,
});

/** What a visitor's browser reports from the public page. */
export const PortfolioEventSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("view") }),
  z.object({ intent: z.literal("share") }),
  z.object({ intent: z.literal("play"), mediaId: z.uuid() }),
]);
export type PortfolioEvent = z.infer<typeof PortfolioEventSchema>;

export const PORTFOLIO_TOASTS = {
  added: { title: "Added to Portfolio" },
  removed: { title: "Removed from Portfolio" },
  featureFailed: {
    title: "Error",
    description: "Failed to update media portfolio status.",
    variant: "destructive",
  },
  saved: { title: "Portfolio Updated", description: "Your portfolio settings have been saved." },
  saveFailed: {
    title: "Error",
    description: "Failed to update portfolio settings.",
    variant: "destructive",
  },
} as const;

export const NOT_THE_ARTIST = "Portfolio management is only available to the artist";
