import { z } from "zod";

/** A text field that may be left out of the post: missing reads as empty. */
const text = <T extends z.ZodType>(schema: T) => z.preprocess((v) => v ?? "", schema);

/** The Settings tab's form. */
export const PortfolioSettingsSchema = z.object({
  title: text(
    z
      .string()
      .trim()
      .min(1, "Portfolio title is required")
      .max(120, "Portfolio title can be at most 120 characters"),
  ),
  description: text(
    z
      .string()
      .trim()
      .max(1000, "Description can be at most 1000 characters")
      .transform((v) => (v === "" ? null : v)),
  ),
  isPublic: z
    .union([z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
    .optional()
    .transform((v) => v === "on" || v === "true"),
});
export type PortfolioSettings = z.infer<typeof PortfolioSettingsSchema>;

const mediaIds = z.preprocess(
  // One id arrives as a string, several as an array.
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(z.uuid("Unknown media item"))
    .min(1, "Select at least one media item")
    .max(500, "Select at most 500 media items at once"),
);

/** Feature or unfeature one or several media items (the star and the bulk bar). */
export const FeatureMediaSchema = z.object({
  featured: z.enum(["true", "false"]).transform((v) => v === "true"),
  mediaIds,
});

export const PROFILE_MEDIA_SLOTS = ["cover", "clip"] as const;
export type ProfileMediaSlot = (typeof PROFILE_MEDIA_SLOTS)[number];

/** The cover photo or featured clip: choose one (`chosen=true`) or stop showing it. */
export const ProfileMediaSchema = z.object({
  intent: z.enum(PROFILE_MEDIA_SLOTS, { error: "Choose the cover photo or the featured clip." }),
  mediaId: z.uuid({ error: "Media not found." }),
  chosen: z.enum(["true", "false"]).transform((v) => v === "true"),
});

/** What a visitor's browser reports from the public page. */
export const PortfolioEventSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("view") }),
  z.object({ intent: z.literal("share") }),
  z.object({ intent: z.literal("play"), mediaId: z.uuid() }),
]);
export type PortfolioEvent = z.infer<typeof PortfolioEventSchema>;

export { NOT_THE_ARTIST } from "./portfolio.texts";
