import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "./card";

/** One figure with its icon and label, and an optional line of detail under it. */
export function StatCard({
  icon: Icon,
  label,
  value,
  detail,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  detail?: ReactNode;
}) {
  return (
    <Card variant="item" padding="sm">
      <div className="flex items-center gap-2 text-sm text-slate-600">
        <Icon aria-hidden className="h-4 w-4 shrink-0 text-brand-600" />
        <span className="min-w-0 wrap-anywhere">{label}</span>
      </div>
      <p className="mt-2 text-2xl font-bold text-slate-900 wrap-anywhere">{value}</p>
      {detail ? <p className="mt-1 text-xs text-slate-500">{detail}</p> : null}
    </Card>
  );
}
