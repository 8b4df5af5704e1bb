/**
 * `npm run operator -- add <email> | remove <email> | list`: who runs the operator's desk at
 * /admin (issue 42, docs/decisions/058), on the database this app uses (PGlite in DATA_DIR, or
 * DATABASE_URL; migrated first). The account must exist (sign up first). Each change is logged in
 * the operator log as done by "cli". Exit 0 when done, 1 when refused, 2 for a usage error.
 */
import { pathToFileURL } from "node:url";
import { addOperator, operatorsOf, removeOperator } from "~/features/problems/operators.server";
import { type Env, loadEnv } from "~/lib/env.server";
import { isProblem } from "~/lib/problem";
import { type DatabaseHandle, databaseOptionsFor, openDatabase } from "~db/client";
import { embeddedDatabaseBusy } from "./app-running";

const USAGE = "Usage: npm run operator -- add <email> | remove <email> | list";

export async function operatorCli(
  argv: string[],
  options: { env?: Env; database?: DatabaseHandle; print?: (text: string) => void } = {},
): Promise<number> {
  const print = options.print ?? ((text: string) => console.log(text));
  const [command, email] = argv;
  if (!(command === "list" || ((command === "add" || command === "remove") && email))) {
    print(USAGE);
    return 2;
  }
  const env = options.env ?? loadEnv();
  const where = databaseOptionsFor(env);
  const busy = options.database ? null : await embeddedDatabaseBusy(env, where);
  if (busy) {
    print(busy);
    return 2;
  }
  const database = options.database ?? openDatabase(where);
  try {
    if (!options.database) await database.migrate();
    if (command === "list") {
      const operators = await operatorsOf(database.db);
      print(
        operators.length === 0 ? "No operators yet." : operators.map((o) => o.email).join("\n"),
      );
      return 0;
    }
    const at = new Date();
    if (command === "add") {
      const user = await addOperator(database.db, "cli", email as string, at);
      print(`${user.email} is an operator: they open ${new URL("/admin", env.appUrl)}.`);
    } else {
      await removeOperator(database.db, "cli", email as string, at);
      print(`${email} is no longer an operator.`);
    }
    return 0;
  } catch (error) {
    if (!isProblem(error)) throw error;
    print(error.message);
    return 1;
  } finally {
    if (!options.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await operatorCli(process.argv.slice(2));
}
