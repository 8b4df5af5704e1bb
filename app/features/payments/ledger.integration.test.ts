import { randomUUID } from "node:crypto";
import { type SQL, sql, TransactionRollbackError } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase, queryRows } from "~db/client";
import { createTestDatabase, usingServer } from "../../../tests/support/test-database";
import {
  accountBalances,
  bookingAccountsOf,
  ensureArtistAccounts,
  ensureBookingAccounts,
  type LedgerIntegrity,
  type LedgerLeg,
  ledgerIntegrity,
  postLedger,
} from "./ledger.server";
import {
  artistReleasedAccount,
  BOOKING_ACCOUNT_PARTS,
  bookingAccount,
  PLATFORM_ACCOUNTS,
  providerAccountOf,
  providerAccountShards,
} from "./ledger-accounts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const WORLD = PLATFORM_ACCOUNTS.razorpay.id;
const at = new Date("2027-02-16T10:00:00Z");
let keys = 0;
/** A key no other test uses: the file's tests share one database and run in a random order. */
const newKey = (what: string) => `${what}:${++keys}-${randomUUID()}`;

/** Posts with the boilerplate filled in. */
const post = (key: string, legs: LedgerLeg[], bookingId: string | null = null) =>
  postLedger(database.db, { key, kind: "adjustment", bookingId, at, source: "job:test", legs });

/** The text of a failure and its causes (Drizzle wraps the driver's error in `cause`). */
async function failureOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    const texts: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) texts.push(e.message);
    return texts.join(" / ");
  }
  throw new Error("expected a failure, got success");
}

/** How many rows the ledger holds, and every balance: what "nothing changed" compares. */
async function snapshot() {
  const [counts] = await queryRows<{ txns: number | string; legs: number | string }>(
    database.db,
    sql`SELECT (SELECT count(*) FROM ledger_txns) AS txns, (SELECT count(*) FROM ledger_legs) AS legs`,
  );
  const balances = await queryRows<{
    id: string;
    balance: number | string;
    version: number | string;
  }>(database.db, sql`SELECT id, balance, version FROM ledger_accounts ORDER BY id`);
  return {
    txns: Number(counts?.txns),
    legs: Number(counts?.legs),
    balances: balances.map((b) => `${b.id}=${Number(b.balance)}@${Number(b.version)}`),
  };
}

async function openBooking() {
  const bookingId = randomUUID();
  const accounts = await ensureBookingAccounts(database.db, bookingId);
  return { bookingId, accounts };
}

describe("the chart of accounts", () => {
  it("has the platform's accounts from the migration, with their kinds and sign rules", async () => {
    const rows = await queryRows<{ id: string; kind: string; allow_negative: boolean }>(
      database.db,
      sql`SELECT id, kind, allow_negative FROM ledger_accounts
        WHERE id LIKE 'world:%' OR id LIKE 'platform:%' ORDER BY id COLLATE "C"`,
    );
    const shards = providerAccountShards()
      .slice(1)
      .map((id) => ({ id, kind: "world", allow_negative: true }));
    const expected = [
      ...Object.values(PLATFORM_ACCOUNTS).map(({ id, kind, allowNegative }) => ({
        id,
        kind,
        allow_negative: allowNegative,
      })),
      ...shards,
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(shards).toHaveLength(15);
    expect(rows).toEqual(expected);
  });

  it("spreads bookings over the provider account's shards, one shard per booking", () => {
    const ids = Array.from({ length: 400 }, () => randomUUID());
    const used = new Set(ids.map(providerAccountOf));
    expect(used.size).toBe(16);
    for (const id of ids) expect(providerAccountOf(id)).toBe(providerAccountOf(id));
    expect(providerAccountOf("00000000-0000-4000-8000-000000000010")).toBe("world:razorpay");
    expect(providerAccountOf("00000000-0000-4000-8000-000000000003")).toBe("world:razorpay:c");
  });

  it("opens a booking's five accounts and an artist's, once however often it is asked", async () => {
    const { bookingId, accounts } = await openBooking();
    await ensureBookingAccounts(database.db, bookingId);
    const artistId = randomUUID();
    const artist = await ensureArtistAccounts(database.db, artistId);
    await ensureArtistAccounts(database.db, artistId);

    expect(accounts.held).toBe(`booking:${bookingId}:held`);
    const opened = await bookingAccountsOf(database.db, bookingId);
    expect(opened.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(
      [...BOOKING_ACCOUNT_PARTS]
        .map((part) => ({
          id: bookingAccount(bookingId, part),
          kind: "liability",
          allowNegative: false,
          balance: 0,
        }))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(artist.released).toBe(artistReleasedAccount(artistId));
    expect(await accountBalances(database.db, [artist.released, "artist:nobody:released"])).toEqual(
      {
        [artist.released]: 0,
      },
    );
  });
});

/** The §4.4 example's booking, paid in full: deposit and balance captured, split and transferred. */
async function paidBooking() {
  const { bookingId, accounts: b } = await openBooking();
  const artist = await ensureArtistAccounts(database.db, randomUUID());
  // Provider ids are per booking here, so a key is never met twice across the file's tests.
  const pay = (name: string) => `${name}_${bookingId}`;
  const steps: [string, LedgerLeg[]][] = [
    [`capture:${pay("pay_D")}`, [{ from: WORLD, to: b.held, amount: 3_750_000 }]],
    [
      `split:${pay("pay_D")}`,
      [
        { from: b.held, to: b.fee_unearned, amount: 442_500 },
        { from: b.held, to: b.tds_hold, amount: 3_750 },
      ],
    ],
    [`transfer:${pay("trf_D")}`, [{ from: b.held, to: b.artist_hold, amount: 3_303_750 }]],
    [`fee:${pay("pay_D")}`, [{ from: PLATFORM_ACCOUNTS.pspFees.id, to: WORLD, amount: 88_500 }]],
    [`capture:${pay("pay_B")}`, [{ from: WORLD, to: b.held, amount: 8_750_000 }]],
    [
      `split:${pay("pay_B")}`,
      [
        { from: b.held, to: b.fee_unearned, amount: 1_032_500 },
        { from: b.held, to: b.tds_hold, amount: 8_750 },
      ],
    ],
    [`transfer:${pay("trf_B")}`, [{ from: b.held, to: b.artist_hold, amount: 7_708_750 }]],
  ];
  for (const [key, legs] of steps) await post(key, legs, bookingId);
  return { bookingId, b, released: artist.released, pay };
}

describe("the design's postings (§4.4)", () => {
  it("capture, split and transfer of the deposit leave held at 0 and the books summing to 0", async () => {
    const { bookingId, accounts: b } = await openBooking();
    const before = await accountBalances(database.db, [WORLD]);

    const capture = await post(
      `capture:pay_D_${bookingId}`,
      [{ from: WORLD, to: b.held, amount: 3_750_000 }],
      bookingId,
    );
    await post(
      `split:pay_D_${bookingId}`,
      [
        { from: b.held, to: b.fee_unearned, amount: 442_500 },
        { from: b.held, to: b.tds_hold, amount: 3_750 },
      ],
      bookingId,
    );
    await post(
      `transfer:trf_D_${bookingId}`,
      [{ from: b.held, to: b.artist_hold, amount: 3_303_750 }],
      bookingId,
    );

    expect(capture).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await accountBalances(database.db, [WORLD, ...Object.values(b)])).toEqual({
      [WORLD]: (before[WORLD] ?? 0) - 3_750_000,
      [b.held]: 0,
      [b.fee_unearned]: 442_500,
      [b.tds_hold]: 3_750,
      [b.artist_hold]: 3_303_750,
      [b.refund_pending]: 0,
    });
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
    const [txn] = await queryRows<{
      kind: string;
      booking_id: string;
      effective_at: string | Date;
    }>(
      database.db,
      sql`SELECT kind, booking_id, effective_at FROM ledger_txns WHERE id = ${capture}`,
    );
    expect(txn?.booking_id).toBe(bookingId);
    expect(new Date(txn?.effective_at ?? 0).toISOString()).toBe(at.toISOString());
  });

  it("released and settled, the booking's accounts are all 0 and the platform earned its part", async () => {
    const { bookingId, b, released, pay } = await paidBooking();
    const platform = [
      PLATFORM_ACCOUNTS.commission.id,
      PLATFORM_ACCOUNTS.gstOutput.id,
      PLATFORM_ACCOUNTS.tdsPayable.id,
    ];
    const before = await accountBalances(database.db, platform);

    await post(
      `release:${pay("trf")}`,
      [
        { from: b.artist_hold, to: released, amount: 11_012_500 },
        { from: b.fee_unearned, to: PLATFORM_ACCOUNTS.commission.id, amount: 1_250_000 },
        { from: b.fee_unearned, to: PLATFORM_ACCOUNTS.gstOutput.id, amount: 225_000 },
        { from: b.tds_hold, to: PLATFORM_ACCOUNTS.tdsPayable.id, amount: 12_500 },
      ],
      bookingId,
    );
    await post(`settle:${pay("trf")}`, [{ from: released, to: WORLD, amount: 11_012_500 }]);

    expect((await bookingAccountsOf(database.db, bookingId)).map((a) => a.balance)).toEqual([
      0, 0, 0, 0, 0,
    ]);
    const after = await accountBalances(database.db, [...platform, released]);
    expect(platform.map((id) => (after[id] ?? 0) - (before[id] ?? 0))).toEqual([
      1_250_000, 225_000, 12_500,
    ]);
    expect(after[released]).toBe(0);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  });

  it("a client's cancellation 5 days before (flexible) refunds 9,375,000 and closes every account", async () => {
    const { bookingId, b, released, pay } = await paidBooking();
    await post(
      `refund_init:${pay("cmd")}`,
      [
        { from: b.artist_hold, to: b.refund_pending, amount: 8_259_375 },
        { from: b.fee_unearned, to: b.refund_pending, amount: 1_106_250 },
        { from: b.tds_hold, to: b.refund_pending, amount: 9_375 },
      ],
      bookingId,
    );
    expect((await accountBalances(database.db, [b.refund_pending]))[b.refund_pending]).toBe(
      9_375_000,
    );
    await post(`refund:${pay("rfnd_B")}`, [
      { from: b.refund_pending, to: WORLD, amount: 8_750_000 },
    ]);
    await post(`refund:${pay("rfnd_D")}`, [{ from: b.refund_pending, to: WORLD, amount: 625_000 }]);
    await post(`release:${pay("kept")}`, [
      { from: b.artist_hold, to: released, amount: 2_753_125 },
      { from: b.fee_unearned, to: PLATFORM_ACCOUNTS.commission.id, amount: 312_500 },
      { from: b.fee_unearned, to: PLATFORM_ACCOUNTS.gstOutput.id, amount: 56_250 },
      { from: b.tds_hold, to: PLATFORM_ACCOUNTS.tdsPayable.id, amount: 3_125 },
    ]);

    expect((await bookingAccountsOf(database.db, bookingId)).map((a) => a.balance)).toEqual([
      0, 0, 0, 0, 0,
    ]);
    expect((await accountBalances(database.db, [released]))[released]).toBe(2_753_125);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  });
});

describe("one business fact posts once (L5)", () => {
  it("a replay returns the first id and changes nothing, whatever order its legs are listed in", async () => {
    const { accounts: b } = await openBooking();
    const key = newKey("split");
    await post(newKey("capture"), [{ from: WORLD, to: b.held, amount: 1_000 }]);
    const legs = [
      { from: b.held, to: b.fee_unearned, amount: 100 },
      { from: b.held, to: b.tds_hold, amount: 1 },
    ];
    const first = await post(key, legs);
    const before = await snapshot();

    expect(await post(key, legs)).toBe(first);
    expect(await post(key, [...legs].reverse())).toBe(first);
    expect(await snapshot()).toEqual(before);
  });

  it("the same key with other legs is refused and changes nothing", async () => {
    const { accounts: b } = await openBooking();
    const key = newKey("capture");
    await post(key, [{ from: WORLD, to: b.held, amount: 1_000 }]);
    const before = await snapshot();

    expect(await failureOf(post(key, [{ from: WORLD, to: b.held, amount: 1_001 }]))).toMatch(
      /idempotency key .* reused with different legs/,
    );
    expect(await failureOf(post(key, [{ from: WORLD, to: b.tds_hold, amount: 1_000 }]))).toMatch(
      /reused with different legs/,
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe("what the database refuses", () => {
  it("an overdraft of an account that may not go negative, rolling back the whole posting (L3)", async () => {
    const { accounts: b } = await openBooking();
    await post(newKey("capture"), [{ from: WORLD, to: b.held, amount: 1_000 }]);
    const before = await snapshot();
    const key = newKey("split");

    // The first leg alone is fine; with the second, held would end at -1.
    const legs = [
      { from: b.held, to: b.fee_unearned, amount: 600 },
      { from: b.held, to: b.tds_hold, amount: 401 },
    ];
    expect(await failureOf(post(key, legs))).toMatch(/ledger_accounts_nonneg/);
    expect(await snapshot()).toEqual(before);
    const [row] = await queryRows<{ n: number | string }>(
      database.db,
      sql`SELECT count(*) AS n FROM ledger_txns WHERE idempotency_key = ${key}`,
    );
    expect(Number(row?.n)).toBe(0);

    // Inside a caller's transaction, the caller's own writes go too.
    expect(
      await failureOf(
        database.db.transaction(async (tx) => {
          await postLedger(tx, {
            key: newKey("capture"),
            kind: "capture",
            bookingId: null,
            at,
            source: "job:test",
            legs: [{ from: WORLD, to: b.refund_pending, amount: 5 }],
          });
          await postLedger(tx, {
            key,
            kind: "split",
            bookingId: null,
            at,
            source: "job:test",
            legs,
          });
        }),
      ),
    ).toMatch(/ledger_accounts_nonneg/);
    expect(await snapshot()).toEqual(before);
  });

  it("a pass-through inside one posting: the legs are netted per account, so their order never matters", async () => {
    const { accounts: b } = await openBooking();
    await post(newKey("capture"), [
      { from: b.held, to: b.fee_unearned, amount: 700 },
      { from: WORLD, to: b.held, amount: 1_000 },
    ]);
    expect(await accountBalances(database.db, [b.held, b.fee_unearned])).toEqual({
      [b.held]: 300,
      [b.fee_unearned]: 700,
    });
  });

  it("changing or removing transactions and legs, and any write not made by ledger_post (L2)", async () => {
    const { accounts: b } = await openBooking();
    const id = await post(newKey("capture"), [{ from: WORLD, to: b.held, amount: 1_000 }]);
    const before = await snapshot();
    const run = (query: SQL) => failureOf(database.db.execute(query));

    expect(await run(sql`UPDATE ledger_legs SET amount = 1 WHERE txn_id = ${id}`)).toMatch(
      /append-only \(ledger_legs\)/,
    );
    expect(await run(sql`DELETE FROM ledger_legs WHERE txn_id = ${id}`)).toMatch(/append-only/);
    expect(await run(sql`UPDATE ledger_txns SET kind = 'refund' WHERE id = ${id}`)).toMatch(
      /append-only \(ledger_txns\)/,
    );
    expect(await run(sql`DELETE FROM ledger_txns WHERE id = ${id}`)).toMatch(/append-only/);
    expect(await run(sql`TRUNCATE ledger_legs, ledger_txns`)).toMatch(/append-only/);
    expect(await run(sql`DELETE FROM ledger_accounts WHERE id = ${b.refund_pending}`)).toMatch(
      /append-only \(ledger_accounts\)/,
    );
    expect(await run(sql`UPDATE ledger_accounts SET balance = 0 WHERE id = ${b.held}`)).toMatch(
      /moves only with legs/,
    );
    expect(
      await run(sql`UPDATE ledger_accounts SET allow_negative = true WHERE id = ${b.held}`),
    ).toMatch(/cannot change/);
    expect(
      await run(
        sql`INSERT INTO ledger_accounts (id, kind, balance) VALUES ('platform:gift', 'income', 5)`,
      ),
    ).toMatch(/must open at 0/);
    expect(
      await run(sql`INSERT INTO ledger_legs (txn_id, from_account, to_account, amount)
        VALUES (${id}, ${WORLD}, ${b.held}, 5)`),
    ).toMatch(/written only by ledger_post\(\) \(ledger_legs\)/);
    expect(await snapshot()).toEqual(before);
  });

  it("a transaction with no legs, at commit (L4)", async () => {
    const before = await snapshot();
    const key = newKey("adjustment");
    expect(
      await failureOf(
        database.db.transaction(async (tx) => {
          await tx.execute(
            sql`SELECT ledger_post(${key}, 'adjustment', NULL, now(), 'admin:test', '[]'::jsonb)`,
          );
          // Still there before the commit: the check is deferred to it.
          const [row] = await queryRows<{ n: number | string }>(
            tx,
            sql`SELECT count(*) AS n FROM ledger_txns WHERE idempotency_key = ${key}`,
          );
          expect(Number(row?.n)).toBe(1);
        }),
      ),
    ).toMatch(/has no legs/);
    expect(await snapshot()).toEqual(before);
    await expect(post(newKey("adjustment"), [])).rejects.toThrow(/has no legs/);
  });

  it("amounts that are not positive whole paise, and legs to the same account (L1)", async () => {
    const { accounts: b } = await openBooking();
    await expect(post(newKey("x"), [{ from: WORLD, to: b.held, amount: 1.5 }])).rejects.toThrow(
      /not a whole number of paise/,
    );
    await expect(post(newKey("x"), [{ from: WORLD, to: b.held, amount: 0 }])).rejects.toThrow(
      /above 0/,
    );
    await expect(post(newKey("x"), [{ from: b.held, to: b.held, amount: 1 }])).rejects.toThrow(
      /to itself/,
    );
    // And the database refuses them from any caller that skipped those checks.
    const legs = (amount: number, to = b.held) => JSON.stringify([{ from: WORLD, to, amount }]);
    const raw = (legsJson: string) =>
      failureOf(
        database.db.execute(
          sql`SELECT ledger_post(${newKey("x")}, 'adjustment', NULL, now(), 'admin:test', ${legsJson}::jsonb)`,
        ),
      );
    expect(await raw(legs(-5))).toMatch(/ledger_legs_amount_check/);
    expect(await raw(legs(5, WORLD))).toMatch(/ledger_legs_accounts_check/);
    expect(await raw(legs(5, "booking:nobody:held"))).toMatch(/does not exist/);
    expect(await raw(legs(1.5))).toMatch(/invalid input syntax for type bigint/);
  });
});

describe("the books stay whole (L1, L6)", () => {
  it("the integrity report finds a balance that differs from its legs", async () => {
    const { accounts: b } = await openBooking();
    await post(newKey("capture"), [{ from: WORLD, to: b.held, amount: 1_000 }]);
    // Only by forging ledger_post's mark can a balance move without legs; rolled back after.
    let report: LedgerIntegrity | null = null;
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT set_config('ledger.writer', 'ledger_post', true)`);
        await tx.execute(
          sql`UPDATE ledger_accounts SET balance = balance + 7 WHERE id = ${b.held}`,
        );
        report = await ledgerIntegrity(tx);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(report).toEqual({
      sumOfBalances: 7,
      mismatched: [{ account: b.held, balance: 1_007, fromLegs: 1_000 }],
    });
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  });

  it("random postings keep every balance equal to its legs, and refused ones change nothing", async () => {
    const { accounts } = await openBooking();
    const ids = [WORLD, PLATFORM_ACCOUNTS.suspense.id, ...Object.values(accounts)];
    const mayGoNegative = new Set<string>([WORLD, PLATFORM_ACCOUNTS.suspense.id]);
    const legArb = fc
      .record({
        from: fc.constantFrom(...ids),
        to: fc.constantFrom(...ids),
        amount: fc.integer({ min: 1, max: 5_000_000 }),
      })
      .filter((leg) => leg.from !== leg.to);
    const postingsArb = fc.array(fc.array(legArb, { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 12,
    });

    let refused = 0;
    let posted = 0;
    await fc.assert(
      fc.asyncProperty(postingsArb, async (postings) => {
        const model = await accountBalances(database.db, ids);
        for (const legs of postings) {
          const next = { ...model };
          for (const leg of legs) {
            next[leg.from] = (next[leg.from] ?? 0) - leg.amount;
            next[leg.to] = (next[leg.to] ?? 0) + leg.amount;
          }
          const overdraws = ids.some((id) => !mayGoNegative.has(id) && (next[id] ?? 0) < 0);
          const before = overdraws ? await snapshot() : null;
          const outcome = await post(newKey("prop"), legs).then(
            () => "posted",
            () => "refused",
          );
          expect(outcome).toBe(overdraws ? "refused" : "posted");
          if (before) {
            refused += 1;
            expect(await snapshot()).toEqual(before);
          } else {
            posted += 1;
            Object.assign(model, next);
          }
          expect(await accountBalances(database.db, ids)).toEqual(model);
        }
        expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
      }),
      { numRuns: 20 },
    );
    // Both kinds were tried, not only one.
    expect(posted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
    // About 700 statements; on a busy PostgreSQL server that takes a while.
  }, 120_000);
});

// Two connections exist only on a PostgreSQL server (the embedded database is one connection),
// as the job runner's kill test does: defined there, not skipped here.
if (usingServer())
  describe("two connections at once (PostgreSQL)", () => {
    let other: DatabaseHandle;
    beforeAll(() => {
      if (!database.url) throw new Error("no URL for the test database");
      other = openDatabase({ driver: "postgres", url: database.url, poolSize: 2 });
    });
    afterAll(async () => {
      await other?.close();
    });

    it("posts over the same accounts with legs in opposite orders all succeed: no deadlock", async () => {
      const { accounts: b } = await openBooking();
      await post(newKey("capture"), [
        { from: WORLD, to: b.held, amount: 1_000_000 },
        { from: WORLD, to: b.fee_unearned, amount: 1_000_000 },
        { from: WORLD, to: b.tds_hold, amount: 1_000_000 },
      ]);
      const oneWay = [
        { from: b.held, to: b.fee_unearned, amount: 3 },
        { from: b.fee_unearned, to: b.tds_hold, amount: 1 },
      ];
      const otherWay = [
        { from: b.fee_unearned, to: b.held, amount: 2 },
        { from: b.tds_hold, to: b.held, amount: 1 },
      ];
      // Each holds its locks a moment before committing, so the two really wait on each other.
      const posting = (db: DatabaseHandle["db"], legs: LedgerLeg[]) =>
        db.transaction(async (tx) => {
          const id = await postLedger(tx, {
            key: newKey("race"),
            kind: "adjustment",
            bookingId: null,
            at,
            source: "job:test",
            legs,
          });
          await tx.execute(sql`SELECT pg_sleep(0.005)`);
          return id;
        });
      const rounds = 40;
      for (let round = 0; round < rounds; round++) {
        // Straight to ledger_post too, legs unsorted: the database does not rely on the caller.
        const results = await Promise.allSettled([
          posting(database.db, oneWay),
          posting(other.db, otherWay),
          other.db.execute(
            sql`SELECT ledger_post(${newKey("race")}, 'adjustment', NULL, now(), 'job:test',
            ${JSON.stringify([...otherWay].reverse())}::jsonb)`,
          ),
        ]);
        expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      }
      // Per round: held -3 +2 +2 +1 +1, fee +3 -1 -2 -2, tds +1 -1 -1.
      expect(await accountBalances(database.db, [b.held, b.fee_unearned, b.tds_hold])).toEqual({
        [b.held]: 1_000_000 + 3 * rounds,
        [b.fee_unearned]: 1_000_000 - 2 * rounds,
        [b.tds_hold]: 1_000_000 - rounds,
      });
    });
  });
