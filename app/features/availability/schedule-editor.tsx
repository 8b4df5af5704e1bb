import { useEffect } from "react";
import { useFetcher, useLocation } from "react-router";
import { useToast } from "~/components/ui/toast";
import type { FormReply } from "~/lib/form";
import type { AvailabilityEntry, AvailabilityStatus } from "./availability";
import { AvailabilityCalendar, type CalendarView, calendarHref } from "./availability-calendar";

/**
 * The owner's calendar in edit mode: each change is saved on the server (and shown at once).
 * Without JavaScript its picker and days are a form (a day's button submits it) answered with
 * this page, and its month arrows and tabs are links (`?month=`, `?view=`).
 */
export function ScheduleEditor({
  entries,
  today,
  month,
  view,
}: {
  entries: AvailabilityEntry[];
  today: string;
  month?: string;
  view?: CalendarView;
}) {
  const fetcher = useFetcher<FormReply>();
  const toast = useToast();
  const { search } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer from the server.
  useEffect(() => {
    if (fetcher.data?.toast) toast(fetcher.data.toast);
    if (fetcher.data && !fetcher.data.ok) {
      toast({
        title: "Error",
        description: fetcher.data.formError ?? "Failed to load availability data.",
        variant: "destructive",
      });
    }
  }, [fetcher.data]);

  // Optimistic: show the change being saved before the server confirms it.
  let shown = entries;
  const pending = fetcher.formData;
  if (pending) {
    const date = String(pending.get("date"));
    const rest = entries.filter((e) => e.date !== date);
    shown =
      pending.get("intent") === "set"
        ? [
            ...rest,
            { date, status: String(pending.get("status")) as AvailabilityStatus, notes: null },
          ]
        : rest;
  }

  return (
    <AvailabilityCalendar
      entries={shown}
      today={today}
      initialMonth={month}
      initialView={view}
      editable
      form={{ action: "/availability", fields: { intent: "set", back: "schedule" } }}
      hrefs={{
        month: (m) => calendarHref(search, "month", m, "schedule"),
        view: (v) => calendarHref(search, "view", v === "calendar" ? null : v, "schedule"),
      }}
      onSetStatus={(date, status) =>
        fetcher.submit({ intent: "set", date, status }, { method: "post", action: "/availability" })
      }
      onClear={(date) =>
        fetcher.submit({ intent: "clear", date }, { method: "post", action: "/availability" })
      }
    />
  );
}
