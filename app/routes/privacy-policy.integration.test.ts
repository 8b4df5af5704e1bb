import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestApp } from "../../tests/support/app-harness";
import { pageText } from "../../tests/support/page-text";
import { createTestDatabase } from "../../tests/support/test-database";

// The privacy policy says what the product keeps today: imported calendars (only dates, decision
// 016), signed credentials (the CV and its status lists, decision 018) and file fingerprints.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

it("is dated 28 November 2026 and names calendars, credentials and file fingerprints", async () => {
  const res = await app.request("/privacy-policy");
  expect(res.status).toBe(200);
  const text = pageText(await res.text());
  expect(text).toContain("Last updated: 28 November 2026");
  expect(text).not.toContain("2024");
  expect(text).toContain("from the calendar only the dates you are busy");
  expect(text).toContain("We never keep the titles, descriptions, places or guests of your events");
  expect(text).toContain("Signed credentials");
  expect(text).toContain("performance CV");
  expect(text).toContain("status list");
  expect(text).toContain("SHA-256 hash");
});
