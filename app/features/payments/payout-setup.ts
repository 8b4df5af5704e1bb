import { z } from "zod";

// The payout set-up form's rules (docs/product.md, "Payments"), shared by the page and the
// server: who the money goes to, their PAN, and a UPI address or a bank account.

const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
const UPI = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9]{1,63}$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;

export const PayoutSetupSchema = z
  .object({
    legalName: z
      .string()
      .trim()
      .min(2, "Enter your name as it is on your PAN card.")
      .max(120, "Keep the name to 120 characters or fewer."),
    pan: z
      .string()
      .trim()
      .toUpperCase()
      .regex(PAN, "Enter your 10-character PAN, for example ABCDE1234F."),
    method: z.enum(["upi", "bank"], { message: "Choose UPI or a bank account." }),
    upi: z.string().trim().optional().default(""),
    accountNumber: z.string().trim().optional().default(""),
    ifsc: z.string().trim().toUpperCase().optional().default(""),
  })
  .superRefine((value, issue) => {
    if (value.method === "upi" && !UPI.test(value.upi))
      issue.addIssue({
        code: "custom",
        path: ["upi"],
        message: "Enter a UPI address such as yourname@okhdfcbank.",
      });
    if (value.method === "bank") {
      if (!/^[0-9]{9,18}$/.test(value.accountNumber))
        issue.addIssue({
          code: "custom",
          path: ["accountNumber"],
          message: "Enter the account number: 9 to 18 digits.",
        });
      if (!IFSC.test(value.ifsc))
        issue.addIssue({
          code: "custom",
          path: ["ifsc"],
          message: "Enter the branch's 11-character IFSC, for example HDFC0001234.",
        });
    }
  });

export type PayoutSetup = z.infer<typeof PayoutSetupSchema>;

/** What GigLedger keeps to show: never the whole account number or PAN. */
export function maskedPayout(setup: PayoutSetup) {
  return {
    panMasked: `${setup.pan.slice(0, 2)}••••••${setup.pan.slice(8)}`,
    destination:
      setup.method === "upi"
        ? `UPI ${setup.upi}`
        : `Bank account ••••${setup.accountNumber.slice(-4)} (${setup.ifsc})`,
  };
}
