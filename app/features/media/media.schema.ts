import { z } from "zod";

/** Removing one media item (the form sends `intent=delete-media` and the item's id). */
export const DeleteMediaSchema = z.object({
  intent: z.literal("delete-media", "Unknown request."),
  mediaId: z.string().default(""),
});
