import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleProxy } from "drizzle-orm/pg-proxy";
import type { DiscoveryQuery } from "~/features/artists/artists.schema";
import {
  countFreeArtists,
  searchAndCountFree,
  searchArtists,
} from "~/features/artists/discovery.server";
import { type Database, type Queryable, queryRows } from "~db/client";
import * as schema from "~db/schema";

/** A SQL text with `$n` placeholders and their values, as a driver receives it. */
export type Statement = { text: string; params: unknown[] };

/** A discovery query with every filter empty, but for `fields`. */
export const discoveryQuery = (fields: Partial<DiscoveryQuery>): DiscoveryQuery => ({
  q: "",
  genre: "",
  location: "",
  date: "",
  page: 1,
  clientVerified: 0,
  occasion: "",
  budget: 0,
  hours: 3,
  sort: "",
  ...fields,
});

/**
 * Every statement `run` sends, with its parameters, recorded by a pg-proxy Drizzle that answers
 * each with no rows (so a search that tries a words' walk first goes on to its planned query),
 * but the terms' shares' verdict on the words, which `verdictsFrom` answers when given (so the
 * planned query asks the trigram index for the parts' rarest trigrams, decision 083).
 */
async function recordStatements(
  name: string,
  run: (db: Database) => Promise<unknown>,
  verdictsFrom?: Queryable,
): Promise<Statement[]> {
  const recorded: Statement[] = [];
  const recorder = drizzleProxy(
    async (text, params) => {
      recorded.push({ text, params });
      if (verdictsFrom && isVerdict({ text }))
        return { rows: await queryRows(verdictsFrom, rebind({ text, params }, "")) };
      return { rows: [] };
    },
    { schema, casing: "snake_case" },
  );
  await run(recorder as unknown as Database);
  if (recorded.length === 0) throw new Error(`${name} sent no query`);
  return recorded;
}

/** The exact SQL and parameters `run` sends (its last statement). */
const recordSql = async (name: string, run: (db: Database) => Promise<unknown>) =>
  (await recordStatements(name, run)).at(-1) as Statement;

/** The exact SQL and parameters searchArtists sends for `q` (the planned query, for words). */
export const discoverySql = (q: DiscoveryQuery) =>
  recordSql("searchArtists", (db) => searchArtists({ db }, null, q));

/**
 * Every statement searchArtists may send for `q` over artist_profiles: for words, the walk's, then
 * the planned one (not the question whether the words are rare, which reads only their shares;
 * `verdictsFrom` answers it: recordStatements).
 */
export const discoveryStatements = async (q: DiscoveryQuery, verdictsFrom?: Queryable) =>
  withoutVerdict(
    await recordStatements("searchArtists", (db) => searchArtists({ db }, null, q), verdictsFrom),
  );

/** Whether the statement is the terms' shares' verdict on the words (wordsVerdict). */
const isVerdict = (statement: Pick<Statement, "text">) =>
  statement.text.includes("search_words_rare(");

/** The statements but the question whether the words are rare (it reads only their shares). */
const withoutVerdict = (statements: Statement[]) =>
  statements.filter((statement) => !isVerdict(statement));

/** The exact SQL countFreeArtists sends for `q` (a date search's total). */
export const freeCountSql = (q: DiscoveryQuery) =>
  recordSql("countFreeArtists", (db) => countFreeArtists({ db }, null, q));

/**
 * Every statement countFreeArtists may send for `q`: for words, the walk's count first; for words
 * too rare to walk, when `verdictsFrom` says so (recordStatements), the one statement that finds
 * the page and the count together (decision 088).
 */
export const freeCountStatements = async (q: DiscoveryQuery, verdictsFrom?: Queryable) =>
  withoutVerdict(
    await recordStatements(
      "countFreeArtists",
      (db) => countFreeArtists({ db }, null, q),
      verdictsFrom,
    ),
  );

/**
 * Every statement searchAndCountFree may send for `q`: for the first page of words on a date, the
 * one walk for the page and its count first (decision 077).
 */
export const searchAndCountStatements = async (q: DiscoveryQuery, verdictsFrom?: Queryable) =>
  withoutVerdict(
    await recordStatements(
      "searchAndCountFree",
      (db) => searchAndCountFree({ db }, null, q),
      verdictsFrom,
    ),
  );

/** The recorded statement as a Drizzle SQL with the same parameters, after `prefix` (EXPLAIN …). */
export function rebind(statement: Statement, prefix: string): SQL {
  const parts = statement.text.split(/\$(\d+)/);
  const chunks: SQL[] = [sql.raw(prefix)];
  parts.forEach((part, i) => {
    chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${statement.params[Number(part) - 1]}`);
  });
  return sql.join(chunks);
}

export type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
export type JsonPlan = { Plan: PlanNode; "Execution Time"?: number };

/** `EXPLAIN (<options>, FORMAT JSON)` of the statement: its top-level plan. */
export async function explainJson(db: Queryable, statement: Statement, options = "") {
  return planOf(db, rebind(statement, `EXPLAIN (${options ? `${options}, ` : ""}FORMAT JSON) `));
}

/** The top-level plan an `EXPLAIN (FORMAT JSON)` statement answers. */
async function planOf(db: Queryable, explain: SQL): Promise<JsonPlan> {
  const [row] = await queryRows<{ "QUERY PLAN": unknown }>(db, explain);
  const raw = row?.["QUERY PLAN"];
  const [top] = (typeof raw === "string" ? JSON.parse(raw) : raw) as JsonPlan[];
  if (!top) throw new Error("EXPLAIN returned no plan");
  return top;
}

/**
 * The generic plan PostgreSQL keeps for the statement once prepared (`EXPLAIN (VERBOSE) EXECUTE`
 * with plan_cache_mode = force_generic_plan), the plan a prepared statement runs after its first
 * five: its parameters are not known while planning.
 */
export async function genericPlan(db: Database, statement: Statement): Promise<JsonPlan> {
  const literal = (value: unknown) => `'${String(value).replaceAll("'", "''")}'`;
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw("SET LOCAL plan_cache_mode = force_generic_plan"));
    await tx.execute(sql.raw(`PREPARE generic_plan_of_test AS ${statement.text}`));
    try {
      return await planOf(
        tx,
        sql.raw(
          `EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE generic_plan_of_test(${statement.params.map(literal).join(", ")})`,
        ),
      );
    } finally {
      await tx.execute(sql.raw("DEALLOCATE generic_plan_of_test"));
    }
  });
}

export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

export function describeNode(node: PlanNode) {
  const parallel = node["Parallel Aware"] ? "Parallel " : "";
  const sort = node["Sort Method"] ? ` [${node["Sort Method"]}]` : "";
  const index = node["Index Name"] ? ` using ${node["Index Name"]}` : "";
  const relation = node["Relation Name"] ? ` on ${node["Relation Name"]}` : "";
  return `${parallel}${node["Node Type"]}${index}${relation}${sort}`;
}

/** Whether the plan reads `table` with a sequential scan. */
export const seqScans = (node: PlanNode, table: string) =>
  planNodes(node).some((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === table);
