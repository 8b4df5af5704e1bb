import { describe, expect, it } from "vitest";
import { attempt, notFoundText, replyError } from "./form.server";
import { Problem } from "./problem";

describe("notFoundText", () => {
  it("answers 404 in plain text with the sentence, never cached", async () => {
    const res = notFoundText("This artist has no verified sessions yet.");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("This artist has no verified sessions yet.\n");
  });

  it('says "Not found" when not told more', async () => {
    expect(await notFoundText().text()).toBe("Not found\n");
  });
});

const refused = (code: Problem["code"], reason?: string) => async (): Promise<string> => {
  throw new Problem(code, "That date is booked.", reason);
};

type Reply = ReturnType<typeof replyError>;

/** React Router's `data(...)`: a body with its status, not yet a Response. */
const isReply = (value: unknown): value is Reply =>
  typeof value === "object" &&
  value !== null &&
  "type" in value &&
  value.type === "DataWithResponseInit";

/** What `attempt` answered: a data reply (status and body), or what it threw. */
async function outcome(run: () => Promise<unknown>) {
  try {
    const result = await run();
    if (isReply(result)) return { status: result.init?.status, data: result.data };
    return { value: result };
  } catch (thrown) {
    return { thrown };
  }
}

describe("attempt", () => {
  const values = { venue: "Blue Frog" };

  it("answers a refusal on the form with its status, message and what was typed", async () => {
    expect(
      await outcome(() => attempt(refused("conflict"), { values, toastTitle: "Error" })),
    ).toEqual({
      status: 409,
      data: {
        ok: false,
        formError: "That date is booked.",
        values,
        toast: { title: "Error", description: "That date is booked.", variant: "destructive" },
      },
    });
  });

  it("throws the 404 page for not found, unless asked to reply", async () => {
    const thrown = (await outcome(() => attempt(refused("not_found"), { values }))).thrown as Reply;
    expect(isReply(thrown)).toBe(true);
    expect(thrown.init?.status).toBe(404);
    const toast = {
      title: "Error",
      description: "Failed to update.",
      variant: "destructive",
    } as const;
    expect(
      await outcome(() => attempt(refused("not_found"), { values, toast, notFound: "reply" })),
    ).toEqual({
      status: 404,
      data: { ok: false, formError: "That date is booked.", values, toast },
    });
  });

  it("shows the route's own toast in place, whatever toastTitle says", async () => {
    const toast = { title: "Not saved", description: "Please try again." };
    const { data } = await outcome(() =>
      attempt(refused("forbidden"), { toast, toastTitle: "Error" }),
    );
    expect(data?.toast).toEqual(toast);
  });

  it("lets the route reply to each refusal by its reason, not found included", async () => {
    const reply = (problem: Problem) =>
      replyError(problem.reason === "already" ? 409 : 400, `by reason: ${problem.reason}`);
    expect(await outcome(() => attempt(refused("conflict", "already"), { reply }))).toEqual({
      status: 409,
      data: { ok: false, formError: "by reason: already" },
    });
    expect(await outcome(() => attempt(refused("not_found", "gone"), { reply }))).toEqual({
      status: 400,
      data: { ok: false, formError: "by reason: gone" },
    });
  });

  it("redirects back (303) with the refusal's toast, but still throws the 404 page", async () => {
    const res = await attempt(refused("invalid"), {
      redirectTo: "/artist-dashboard?tab=schedule",
      toastTitle: "Calendar not updated",
    });
    expect(res).toBeInstanceOf(Response);
    const redirect = res as Response;
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe("/artist-dashboard?tab=schedule");
    expect(redirect.headers.get("set-cookie")).toMatch(/^gl_toast=/);
    const { thrown } = await outcome(() =>
      attempt(refused("not_found"), { redirectTo: "/artist-dashboard" }),
    );
    expect((thrown as Reply).init?.status).toBe(404);
  });

  it("passes success and errors that are not refusals through", async () => {
    expect(await attempt(async () => "done", { redirectTo: "/" })).toBe("done");
    const broken = new Error("database down");
    await expect(
      attempt(async () => {
        throw broken;
      }),
    ).rejects.toBe(broken);
  });
});
