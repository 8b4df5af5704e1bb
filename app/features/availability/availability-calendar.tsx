import ChevronLeft from "lucide-react/icons/chevron-left";
import ChevronRight from "lucide-react/icons/chevron-right";
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { isNewTabClick, segmentedTabClass, useTabs } from "~/components/ui/tabs";
import {
  addMonths,
  dateForGridKey,
  formatLongDate,
  formatMonth,
  isIsoMonth,
  monthGrid,
  monthOf,
  WEEKDAY_NAMES,
} from "~/lib/dates";
import { pickedRadio } from "~/lib/use-early-input";
import {
  AVAILABILITY_STATUSES,
  type AvailabilityEntry,
  type AvailabilityStatus,
  STATUS_LABELS,
} from "./availability";
import { upcomingEvents } from "./upcoming";

const DEFAULT_STATUS: AvailabilityStatus = "available";
/** What the owner's picker offers: a status to set, or 'Clear'. */
type Pick = AvailabilityStatus | "clear";
const PICKS: readonly Pick[] = [...AVAILABILITY_STATUSES, "clear"];
const PICK_LABELS: Record<Pick, string> = { ...STATUS_LABELS, clear: "Clear" };

function pickedStatus(picker: HTMLElement | null): Pick {
  const value = picker ? pickedRadio(picker) : undefined;
  return PICKS.find((pick) => pick === value) ?? DEFAULT_STATUS;
}

export type AvailabilityCalendarProps = {
  entries: readonly AvailabilityEntry[];
  /** Today's calendar date (`YYYY-MM-DD`) in the app's time zone; see `todayIn`. */
  today: string;
  /** `YYYY-MM`; defaults to today's month. */
  initialMonth?: string;
  /** The tab shown first; defaults to 'Calendar View'. */
  initialView?: CalendarView;
  /**
   * Addresses of a month and of a tab (a page whose loader reads them): the month arrows and the
   * tabs become links, so they work without JavaScript; with it they switch at once, as before.
   */
  hrefs?: { month: (month: string) => string; view: (view: CalendarView) => string };
  /** Owner edit mode: pick a status, then click a day to set it (see docs/product.md, Availability). */
  editable?: boolean;
  /**
   * Edit mode without JavaScript: the picker and the days sit in this form, a day's button
   * submits it (`date`, `status`, and these hidden fields); with JavaScript a click calls
   * `onSetStatus` or `onClear` instead.
   */
  form?: { action: string; fields: Record<string, string> };
  onSetStatus?: (date: string, status: AvailabilityStatus) => void;
  onClear?: (date: string) => void;
  /** A day was picked (clicked), for the page around the calendar: the profile books it. */
  onSelectDate?: (date: string) => void;
  className?: string;
};

export type CalendarView = "calendar" | "upcoming";

/**
 * The page's address with one calendar setting changed (`?month=YYYY-MM`, `?view=upcoming`; null
 * removes it), scrolled to the calendar at `#anchor`: the month arrows and tabs are links to it,
 * so they work without JavaScript.
 */
export function calendarHref(
  search: string,
  key: "month" | "view",
  value: string | null,
  anchor: string,
) {
  const params = new URLSearchParams(search);
  if (value === null) params.delete(key);
  else params.set(key, value);
  const query = params.toString();
  return `${query ? `?${query}` : "?"}#${anchor}`;
}
type TabId = CalendarView;
const TABS: readonly { id: TabId; label: string }[] = [
  { id: "calendar", label: "Calendar View" },
  { id: "upcoming", label: "Upcoming Events" },
];

const SWATCH: Record<AvailabilityStatus, string> = {
  available: "bg-green-500",
  booked: "bg-red-500",
  unavailable: "bg-slate-400",
};
const DAY_COLORS: Record<AvailabilityStatus, string> = {
  available: "bg-green-100 text-green-900 hover:bg-green-200",
  booked: "bg-red-100 text-red-900 hover:bg-red-200",
  unavailable: "bg-slate-200 text-slate-600 hover:bg-slate-300",
};
const NO_STATUS_COLORS = "bg-white text-slate-800 hover:bg-slate-100";
const BADGE_COLORS: Record<AvailabilityStatus, string> = {
  available: "bg-green-100 text-green-800",
  booked: "bg-red-100 text-red-800",
  unavailable: "bg-slate-100 text-slate-700",
};

export function AvailabilityStatusBadge({ status }: { status: AvailabilityStatus }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ${BADGE_COLORS[status]}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${SWATCH[status]}`} />
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * Availability calendar: tabs 'Calendar View' and 'Upcoming Events'. Read-only by
 * default; with `editable` the owner picks a status and clicks a day to set it. Dependency-free
 * accessible tabs, so it stays light on public profile pages.
 */
export function AvailabilityCalendar({
  entries,
  today,
  initialMonth,
  initialView = "calendar",
  hrefs,
  editable = false,
  form,
  onSetStatus,
  onClear,
  onSelectDate,
  className = "",
}: AvailabilityCalendarProps) {
  const id = useId();
  const currentMonth = monthOf(today);
  const startMonth = initialMonth && isIsoMonth(initialMonth) ? initialMonth : currentMonth;
  // Earlier months are of no use for booking; allow them only when asked to start there.
  let minMonth = currentMonth;
  if (startMonth < currentMonth) minMonth = startMonth;

  const tabs = useTabs<TabId>(
    TABS.map((t) => t.id),
    initialView,
  );
  const [month, setMonth] = useState(startMonth);
  const [selected, setSelected] = useState<string | null>(null);
  const [focusDate, setFocusDate] = useState<string | null>(null);
  // The status to set is read from the radios when a date is clicked, not kept in state: one
  // picked before the page's scripts ran (decision 024) counts as well.
  const statusPicker = useRef<HTMLFieldSetElement>(null);
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);

  const byDate = useMemo(() => new Map(entries.map((e) => [e.date, e])), [entries]);
  const upcoming = useMemo(() => upcomingEvents(entries, today), [entries, today]);
  const weeks = useMemo(
    () =>
      monthGrid(month).map((week) => {
        const weekKey = week.find((d) => d !== null) ?? month;
        return {
          key: weekKey,
          cells: week.map((date, i) => ({ date, key: date ?? `${weekKey}:${i}` })),
        };
      }),
    [month],
  );

  const inMonth = (date: string | null): date is string => date?.startsWith(`${month}-`) ?? false;
  const tabbableDate = [focusDate, selected, today].find(inMonth) ?? `${month}-01`;

  useEffect(() => {
    if (!moveFocus.current || !focusDate) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`button[data-date="${focusDate}"]`)?.focus();
  }, [focusDate]);

  const atMinMonth = month <= minMonth;

  function onDayKeyDown(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const target = dateForGridKey(date, event.key);
    if (!target) return;
    event.preventDefault();
    if (monthOf(target) < minMonth) return;
    setMonth(monthOf(target));
    moveFocus.current = true;
    setFocusDate(target);
  }

  function onDayClick(event: MouseEvent, date: string) {
    // A day's submit is for the owner's page without JavaScript: with it, the click saves here.
    event.preventDefault();
    setSelected(date);
    onSelectDate?.(date);
    setFocusDate(date);
    if (!editable || date < today) return;
    const pick = pickedStatus(statusPicker.current);
    if (pick === "clear") onClear?.(date);
    else onSetStatus?.(date, pick);
  }

  const selectedEntry = selected ? byDate.get(selected) : undefined;

  return (
    <Card padding="none" className={`p-3 shadow-sm sm:p-5 ${className}`}>
      <div
        role="tablist"
        aria-label="Availability"
        className="flex w-full rounded-lg bg-slate-100 p-1 sm:inline-flex sm:w-auto"
      >
        {TABS.map((t) => {
          const className = `${segmentedTabClass} h-9 flex-1 px-3 sm:flex-none sm:px-4`;
          if (!hrefs)
            return (
              <button key={t.id} {...tabs.tabProps(t.id)} className={className}>
                {t.label}
              </button>
            );
          // A link to the page with this tab shown; with JavaScript the tab switches in place.
          return (
            <a
              key={t.id}
              {...tabs.linkTabProps(t.id, hrefs.view(t.id))}
              className={`${className} inline-flex items-center justify-center`}
            >
              {t.label}
            </a>
          );
        })}
      </div>

      <div {...tabs.panelProps("calendar")} className="mt-4">
        <EditForm form={editable ? form : undefined} month={month}>
          {editable && (
            <fieldset ref={statusPicker} className="mb-4">
              <legend className="mb-2 text-sm text-slate-600">
                Pick a status, then click a date to set it.
              </legend>
              <div className="flex flex-wrap gap-2">
                {PICKS.map((pick) => (
                  <label
                    key={pick}
                    className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-50 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:text-brand-900 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600"
                  >
                    <input
                      type="radio"
                      name={form ? "status" : `${id}-status`}
                      value={pick}
                      defaultChecked={pick === DEFAULT_STATUS}
                      className="sr-only"
                    />
                    <span
                      aria-hidden
                      className={`h-2.5 w-2.5 rounded-full ${pick === "clear" ? "border border-slate-400" : SWATCH[pick]}`}
                    />
                    {PICK_LABELS[pick]}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <div className="mb-2 flex items-center justify-between gap-2">
            {hrefs && !atMinMonth ? (
              <MonthLink
                label="Previous month"
                href={hrefs.month(addMonths(month, -1))}
                onGo={() => setMonth(addMonths(month, -1))}
              >
                <ChevronLeft aria-hidden className="h-5 w-5" />
              </MonthLink>
            ) : (
              <Button
                variant="ghost"
                size="icon"
                aria-label="Previous month"
                aria-disabled={atMinMonth || undefined}
                onClick={() => {
                  if (!atMinMonth) setMonth(addMonths(month, -1));
                }}
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent"
              >
                <ChevronLeft aria-hidden className="h-5 w-5" />
              </Button>
            )}
            <div id={`${id}-month`} aria-live="polite" className="text-base font-semibold">
              {formatMonth(month)}
            </div>
            {hrefs ? (
              <MonthLink
                label="Next month"
                href={hrefs.month(addMonths(month, 1))}
                onGo={() => setMonth(addMonths(month, 1))}
              >
                <ChevronRight aria-hidden className="h-5 w-5" />
              </MonthLink>
            ) : (
              <Button
                variant="ghost"
                size="icon"
                aria-label="Next month"
                onClick={() => setMonth(addMonths(month, 1))}
              >
                <ChevronRight aria-hidden className="h-5 w-5" />
              </Button>
            )}
          </div>

          <table
            ref={gridRef}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: APG date grid; lets screen readers pass arrow keys to the roving focus.
            role="grid"
            aria-labelledby={`${id}-month`}
            className="w-full table-fixed border-separate border-spacing-0.5 sm:border-spacing-1"
          >
            <thead>
              <tr>
                {WEEKDAY_NAMES.map((name) => (
                  <th key={name} scope="col" className="pb-1 text-xs font-medium text-slate-500">
                    <abbr title={name} className="no-underline">
                      {name.slice(0, 3)}
                    </abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week.key}>
                  {week.cells.map(({ date, key }) => (
                    <td key={key} className="p-0">
                      {date && (
                        <DayButton
                          date={date}
                          entry={byDate.get(date)}
                          isToday={date === today}
                          isPast={date < today}
                          isSelected={date === selected}
                          tabbable={date === tabbableDate}
                          submits={Boolean(editable && form)}
                          onClick={(event) => onDayClick(event, date)}
                          onKeyDown={(event) => onDayKeyDown(event, date)}
                        />
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </EditForm>

        <ul
          aria-label="Legend"
          className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 sm:text-sm"
        >
          {AVAILABILITY_STATUSES.map((status) => (
            <li key={status} className="flex items-center gap-1.5">
              <span aria-hidden className={`h-2.5 w-2.5 rounded-full ${SWATCH[status]}`} />
              {STATUS_LABELS[status]}
            </li>
          ))}
        </ul>

        <div className="mt-4 rounded-xl bg-slate-50 p-3 text-sm sm:p-4">
          {selected ? (
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div aria-live="polite" className="min-w-0 space-y-1">
                <p className="font-semibold text-slate-900">{formatLongDate(selected)}</p>
                {selectedEntry ? (
                  <AvailabilityStatusBadge status={selectedEntry.status} />
                ) : (
                  <p className="text-slate-600">No status set</p>
                )}
                {selectedEntry?.busyIn ? (
                  <p className="text-slate-700 wrap-anywhere">
                    Busy in your other calendar: {selectedEntry.busyIn.join(", ")}.
                  </p>
                ) : null}
                {editable && selected < today && (
                  <p className="text-xs text-slate-500">Past dates can't be changed.</p>
                )}
                {selectedEntry?.notes && (
                  <p className="whitespace-pre-line wrap-anywhere text-slate-700">
                    {selectedEntry.notes}
                  </p>
                )}
              </div>
              {editable &&
                selectedEntry &&
                !selectedEntry.unmarked &&
                selected >= today &&
                onClear && (
                  <Button variant="outline" size="sm" onClick={() => onClear(selected)}>
                    Clear
                  </Button>
                )}
            </div>
          ) : (
            <p className="text-slate-600">
              {editable
                ? "Click a day to give it the status picked above."
                : "Select a day to see its status."}
            </p>
          )}
        </div>
      </div>

      <div
        {...tabs.panelProps("upcoming")}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: APG tabs: a panel without focusable content takes focus.
        tabIndex={0}
        className="mt-4"
      >
        {upcoming.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">No upcoming events scheduled</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {upcoming.map((event) => {
              const notes = byDate.get(event.date)?.notes;
              return (
                <li key={event.date} className="flex items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">{event.label}</p>
                    <p className="text-sm text-slate-500">
                      <time dateTime={event.date}>{formatLongDate(event.date)}</time>
                    </p>
                    {notes && <p className="truncate text-sm text-slate-600">{notes}</p>}
                  </div>
                  <AvailabilityStatusBadge status={event.status} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Card>
  );
}

/**
 * A month arrow as a link to the page showing that month (works without JavaScript); with
 * JavaScript the calendar turns the page in place instead of loading it again.
 */
function MonthLink({
  label,
  href,
  onGo,
  children,
}: {
  label: string;
  href: string;
  onGo: () => void;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      aria-label={label}
      onClick={(event) => {
        if (isNewTabClick(event)) return;
        event.preventDefault();
        onGo();
      }}
      className={buttonClasses("ghost", "icon")}
    >
      {children}
    </a>
  );
}

/**
 * The owner's picker and days inside the form that saves a click without JavaScript (its hidden
 * fields and the month shown, to come back to); anything else as it is.
 */
function EditForm({
  form,
  month,
  children,
}: {
  form: AvailabilityCalendarProps["form"];
  month: string;
  children: ReactNode;
}) {
  if (!form) return <>{children}</>;
  return (
    <form method="post" action={form.action}>
      {Object.entries(form.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="month" value={month} />
      {children}
    </form>
  );
}

function DayButton({
  date,
  entry,
  isToday,
  isPast,
  isSelected,
  tabbable,
  submits,
  onClick,
  onKeyDown,
}: {
  date: string;
  entry: AvailabilityEntry | undefined;
  isToday: boolean;
  isPast: boolean;
  isSelected: boolean;
  tabbable: boolean;
  /** The day's button submits the owner's form (`date`), for pages without JavaScript. */
  submits: boolean;
  onClick: (event: MouseEvent) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}) {
  const colors = entry ? DAY_COLORS[entry.status] : NO_STATUS_COLORS;
  const classes = [
    "flex h-10 w-full flex-col items-center justify-center rounded-md border-2 text-sm tabular-nums transition-colors sm:h-12 sm:rounded-lg",
    // Past days are muted but keep readable contrast; their status stays in the dot and label.
    isPast && !isToday ? "bg-slate-50 text-slate-500" : colors,
    isToday ? "border-brand-600 font-bold" : "border-transparent",
    isSelected ? "ring-2 ring-slate-900 ring-offset-1" : "",
  ];
  return (
    <button
      type={submits ? "submit" : "button"}
      name={submits ? "date" : undefined}
      value={submits ? date : undefined}
      data-date={date}
      tabIndex={tabbable ? 0 : -1}
      aria-label={`${formatLongDate(date)}: ${entry ? STATUS_LABELS[entry.status] : "No status set"}${entry?.busyIn ? `, busy in ${entry.busyIn.join(", ")}` : ""}`}
      aria-pressed={isSelected}
      aria-current={isToday ? "date" : undefined}
      onClick={onClick}
      onKeyDown={onKeyDown}
      className={classes.join(" ")}
    >
      <span>{Number(date.slice(8))}</span>
      <span
        aria-hidden
        className={`mt-0.5 h-1.5 w-1.5 rounded-full ${entry ? SWATCH[entry.status] : "bg-transparent"}`}
      />
    </button>
  );
}
