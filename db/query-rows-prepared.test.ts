import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtist } from "~seed/factories";
import { createTestDatabase } from "../tests/support/test-database";
import { queryRows, queryRowsPrepared, uuidArray } from "./client";
import { artistProfiles } from "./schema";

// queryRowsPrepared (decision 071): the rows queryRows gives, from a statement each connection
// prepares once, named after its text.

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.dispose());

/** The artists of `ids` by key, as a page's figures are read. */
const namesOf = (ids: string[]) =>
  sql`SELECT ${artistProfiles.id} AS id, ${artistProfiles.artistName} AS name FROM ${artistProfiles}
      WHERE ${artistProfiles.id} = ANY(${uuidArray(ids)}) ORDER BY ${artistProfiles.artistName}`;

describe("queryRowsPrepared", () => {
  it("gives the rows queryRows gives, for any values, again and again, and in a transaction", async () => {
    const a = await createArtist({ db: handle.db }, { name: "Test Prepared A" });
    const b = await createArtist({ db: handle.db }, { name: "Test Prepared B" });
    const unknown = randomUUID();
    for (const ids of [[a.artistId], [b.artistId, a.artistId, unknown], [unknown], []]) {
      const expected = await queryRows(handle.db, namesOf(ids));
      // More times than PostgreSQL plans it for its values before it may reuse one plan.
      for (let i = 0; i < 7; i++)
        expect(await queryRowsPrepared(handle.db, namesOf(ids))).toEqual(expected);
    }
    expect(
      (await queryRowsPrepared<{ name: string }>(handle.db, namesOf([b.artistId, a.artistId]))).map(
        (r) => r.name,
      ),
    ).toEqual(["Test Prepared A", "Test Prepared B"]);
    const inTransaction = await handle.db.transaction((tx) =>
      queryRowsPrepared<{ id: string }>(tx, namesOf([a.artistId])),
    );
    expect(inTransaction.map((r) => r.id)).toEqual([a.artistId]);
  });

  it("names each statement after its own text: two texts on one connection never collide", async () => {
    const texts = [sql`SELECT ${1}::int AS v`, sql`SELECT ${1}::int + 1 AS v`];
    for (let i = 0; i < 3; i++) {
      expect(await queryRowsPrepared(handle.db, texts[0]!)).toEqual([{ v: 1 }]);
      expect(await queryRowsPrepared(handle.db, texts[1]!)).toEqual([{ v: 2 }]);
    }
  });

  it("prepares it once on a PostgreSQL connection, by a name of its text (PGlite: as queryRows)", async () => {
    const artist = await createArtist({ db: handle.db }, { name: "Test Prepared C" });
    const statements = await handle.db.transaction(async (tx) => {
      // One connection: the transaction's.
      for (let i = 0; i < 3; i++) await queryRowsPrepared(tx, namesOf([artist.artistId]));
      return queryRows<{ name: string; statement: string }>(
        tx,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'gl\\_%'`,
      );
    });
    const ours = statements.filter((s) => s.statement.includes("ANY($1::uuid[])"));
    if (handle.driver === "pglite") expect(ours).toEqual([]);
    else {
      expect(ours).toHaveLength(1);
      expect(ours[0]?.name).toMatch(/^gl_[\w-]{24}$/);
    }
  });
});
