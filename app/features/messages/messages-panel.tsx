import Send from "lucide-react/icons/send";
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { inputClasses } from "~/components/ui/input-classes";
import { useToast } from "~/components/ui/toast";
import { formatShortWallClock } from "~/lib/dates";
import type { FormReply } from "~/lib/form";
import { withWholeStylesheet } from "~/lib/page-styles";
import { fieldText, useEarlyInput } from "~/lib/use-early-input";
import { useHydrated } from "~/lib/use-hydrated";
import { usePending } from "~/lib/use-pending";
import type { BookingMessage } from "./messages.server";

/**
 * When a message was sent, in the booking's zone (the artist's) with its abbreviation, like every
 * time on a booking page: "Nov 21, 7:30 PM IST", the same for both parties, before and after
 * JavaScript runs.
 */
function MessageTime({ at, timeZone }: { at: string; timeZone: string }) {
  return <time dateTime={at}>{formatShortWallClock(at, timeZone)}</time>;
}

/**
 * The booking's conversation: oldest first, 'You' for one's own. New messages arrive live over
 * Server-Sent Events; after a dropped connection the browser reconnects and the server replays
 * what was missed (Last-Event-ID).
 */
export function MessagesPanel({
  bookingId,
  userId,
  initial,
  canSend,
  timeZone,
  sentToast,
  refused,
}: {
  bookingId: string;
  userId: string;
  initial: BookingMessage[];
  canSend: boolean;
  /** The booking's zone (the artist's): message times are drawn in it. */
  timeZone: string;
  /** A confirmation after sending (the artist's 'Message Sent'). */
  sentToast?: { title: string; description: string };
  /** A message the page's action refused (sent without JavaScript): its error and its text. */
  refused?: { error: string; message: string };
}) {
  const [messages, setMessages] = useState(initial);
  const [draft, setDraft] = useState(refused?.message ?? "");
  const fetcher = useFetcher<FormReply<BookingMessage>>();
  const sending = usePending({ fetcher });
  const hydrated = useHydrated();
  const toast = useToast();
  const list = useRef<HTMLOListElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, (typed) => setDraft(fieldText(typed, "message")));

  const add = useCallback(
    (incoming: BookingMessage[]) =>
      setMessages((current) => {
        const known = new Set(current.map((m) => m.id));
        const fresh = incoming.filter((m) => !known.has(m.id));
        return fresh.length ? [...current, ...fresh] : current;
      }),
    [],
  );

  const lastInitialId = initial.at(-1)?.id ?? "";
  useEffect(() => {
    // `after`: anything sent between this page's render and the stream's start is replayed.
    const source = new EventSource(`/bookings/${bookingId}/events?after=${lastInitialId}`);
    withWholeStylesheet(); // what arrives is drawn without a sign of use first
    source.addEventListener("message", (event) => add([JSON.parse(event.data) as BookingMessage]));
    return () => source.close();
  }, [bookingId, lastInitialId, add]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer from the server.
  useEffect(() => {
    const sent = fetcher.data?.value;
    if (sent) {
      add([sent]);
      setDraft("");
      if (sentToast) toast(sentToast);
    }
    if (fetcher.data && !fetcher.data.ok) {
      toast({
        title: "Error",
        description: "Failed to send message. Please try again.",
        variant: "destructive",
      });
    }
  }, [fetcher.data]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the list grows.
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: "nearest" });
  }, [messages.length]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line.
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      if (draft.trim()) form.current?.requestSubmit();
    }
  };

  return (
    <Card as="section" padding="sm" aria-labelledby="messages-title" id="messages">
      <h2 id="messages-title" className="text-lg font-semibold">
        Messages
      </h2>
      {messages.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">No messages yet. Start the conversation!</p>
      ) : (
        <ol ref={list} aria-live="polite" className="mt-4 max-h-96 space-y-3 overflow-y-auto">
          {messages.map((m) => {
            const mine = m.senderUserId === userId;
            return (
              <li key={m.id} className={`flex ${mine ? "justify-end" : "justify-start"}`}>
                <div
                  className={`min-w-0 max-w-[85%] rounded-2xl px-4 py-2 ${mine ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-900"}`}
                >
                  <p
                    className={`text-xs wrap-anywhere ${mine ? "text-brand-100" : "text-slate-600"}`}
                  >
                    {mine ? "You" : m.senderName} ·{" "}
                    <MessageTime at={m.createdAt} timeZone={timeZone} />
                  </p>
                  <p className="whitespace-pre-wrap wrap-anywhere">{m.message}</p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {canSend ? (
        <fetcher.Form
          method="post"
          ref={form}
          className="mt-4 flex items-end gap-2"
          onSubmit={(event) => {
            if (!draft.trim()) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="message" />
          {/* With JavaScript the answer is the message itself; without, the page is loaded again. */}
          {hydrated ? <input type="hidden" name="stay" value="1" /> : null}
          <label htmlFor="message-input" className="sr-only">
            Message
          </label>
          <textarea
            id="message-input"
            name="message"
            rows={2}
            maxLength={2000}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Type your message..."
            aria-invalid={refused ? true : undefined}
            aria-describedby={refused ? "message-error" : undefined}
            className={`${inputClasses} min-w-0 flex-1 resize-none`}
          />
          {/* Never disabled before JavaScript runs; an empty message is not sent (onSubmit). */}
          <Button type="submit" aria-label="Send message" disabled={sending}>
            <Send aria-hidden className="h-4 w-4" />
          </Button>
        </fetcher.Form>
      ) : null}
      {canSend && refused ? (
        <p id="message-error" className="mt-2 text-sm text-red-700">
          {refused.error}
        </p>
      ) : null}
    </Card>
  );
}
