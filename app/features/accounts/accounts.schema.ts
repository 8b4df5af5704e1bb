import { z } from "zod";

// The messages are the product's own words (see docs/product.md, Accounts): keep them word for word.
const email = z
  .string()
  .trim()
  .min(1, "Email is required")
  // The same test as better-auth's (zod's): an address we accept, it accepts.
  .refine((v) => z.email().safeParse(v).success, "Please enter a valid email address")
  .max(254, "Please enter a valid email address")
  .transform((v) => v.toLowerCase());

const password = z
  .string()
  .min(1, "Password is required")
  .min(6, "Password must be at least 6 characters long")
  .max(128, "Password must be at most 128 characters long");

const name = (message: string) =>
  z.string().trim().min(1, message).max(100, "Please use at most 100 characters");

export const SignInSchema = z.object({
  email,
  password: z
    .string()
    .min(1, "Password is required")
    .max(128, "Password must be at most 128 characters long"),
});
export type SignIn = z.infer<typeof SignInSchema>;

/** What the person came for: booking musicians, or an artist profile of their own. */
const PURPOSES = ["book", "artist"] as const;
export type Purpose = (typeof PURPOSES)[number];

export const SignUpSchema = z.object({
  firstName: name("First name is required"),
  lastName: name("Last name is required"),
  email,
  password,
  // Left out (a sign-up that started from an action asks nothing): booking.
  purpose: z.enum(PURPOSES).catch("book"),
});
export type SignUp = z.infer<typeof SignUpSchema>;

export const EmailOnlySchema = z.object({ email });

export const NewPasswordSchema = z
  .object({ token: z.string().min(1), password, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type NewPassword = z.infer<typeof NewPasswordSchema>;

export const ProfileSettingsSchema = z.object({
  firstName: name("First name is required"),
  lastName: name("Last name is required"),
  email,
});
export type ProfileSettings = z.infer<typeof ProfileSettingsSchema>;

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Password is required"),
    newPassword: password,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

export const DeleteAccountSchema = z.object({
  password: z.string().min(1, "Please enter your password to confirm"),
});
export type DeleteAccount = z.infer<typeof DeleteAccountSchema>;
