import { requireUser } from "~/features/accounts/accounts.server";
import { getBooking } from "~/features/bookings/booking-views.server";
import { bookingTopic, listMessages } from "~/features/messages/messages.server";
import { notFound } from "~/lib/form.server";
import type { Route } from "./+types/bookings.$bookingId.events";

const HEARTBEAT_MS = 25_000;

/**
 * Server-Sent Events for one booking's messages, for its two parties only. Each event's id is the
 * message id, so a reconnecting browser (Last-Event-ID) gets exactly what it missed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const booking = await getBooking(context, user, params.bookingId);
  if (!booking) notFound();
  const bookingId = booking.id;
  // A reconnecting browser names the last message it got; a new page names the last one it shows.
  const after = new URL(request.url).searchParams.get("after");
  let lastSent: string | null = request.headers.get("last-event-id") || after || null;
  const catchUpFirst = lastSent !== null || after !== null;
  const encoder = new TextEncoder();
  let cleanup = () => {};

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let sending = Promise.resolve();
      const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
      // Messages are sent in order, one catch-up at a time: from the last id this stream sent.
      const flush = () => {
        sending = sending
          .then(async () => {
            const fresh = await listMessages(context, user, { booking, after: lastSent });
            for (const m of fresh) {
              send(`id: ${m.id}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`);
              lastSent = m.id;
            }
          })
          .catch((error: unknown) => context.logger.error({ err: error }, "message stream failed"));
      };
      send("retry: 1000\n\n");
      const unsubscribe = context.realtime.subscribe(bookingTopic(bookingId), flush);
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      if (catchUpFirst) flush();
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
