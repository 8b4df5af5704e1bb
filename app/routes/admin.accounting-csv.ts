import { accountingCsv } from "~/features/payments/desk.server";
import { requireOperator } from "~/features/problems/operators.server";
import type { Route } from "./+types/admin.accounting-csv";

/** The accountant's CSV of a month (`?month=YYYY-MM`): operators only, 404 for anyone else. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOperator(request, context);
  const month = new URL(request.url).searchParams.get("month") ?? "";
  const csv = await accountingCsv(context.db, month, {
    timeZone: context.env.timeZone,
    invoicePrefix: context.env.invoicePrefix,
  });
  if (csv === null)
    return new Response("Choose a month as YYYY-MM, for example 2026-11.\n", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="gigledger-commission-${month}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Nothing is posted here; to anyone but an operator the address does not exist (404). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(request, context);
  return new Response("Nothing is posted here.\n", { status: 405 });
}
