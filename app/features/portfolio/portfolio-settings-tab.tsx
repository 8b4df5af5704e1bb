import { useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import type { FormReply } from "~/lib/form";
import { usePending } from "~/lib/use-pending";
import { useToastOn } from "~/lib/use-toast-on";
import { MANAGER_ACTION } from "./manager-action";
import type { PortfolioCardData } from "./portfolio.server";
import { SwitchField } from "./switch-field";

const valuesOf = (p: PortfolioCardData) => ({
  title: p.title,
  description: p.description ?? "",
  isPublic: p.isPublic,
});

/**
 * The Settings tab: an Edit Mode switch opens the form; Save Changes (once saved) or Cancel
 * leaves it.
 */
export function PortfolioSettingsTab({ portfolio }: { portfolio: PortfolioCardData }) {
  const fetcher = useFetcher<FormReply>();
  useToastOn(fetcher.data, fetcher.data?.toast);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState(() => valuesOf(portfolio));
  const [handled, setHandled] = useState<unknown>(null);
  if (fetcher.state === "idle" && fetcher.data && fetcher.data !== handled) {
    setHandled(fetcher.data);
    // What was typed stays on screen until it is saved.
    if (fetcher.data.ok) setEditing(false);
  }
  const saving = usePending({ fetcher });
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : undefined;

  return (
    <div className="max-w-2xl space-y-6">
      <SwitchField
        label="Edit Mode"
        description="Change the title, description and who can see your portfolio."
        checked={editing}
        onChange={(e) => {
          setEditing(e.target.checked);
          if (e.target.checked) setValues(valuesOf(portfolio));
        }}
      />
      {editing ? (
        <fetcher.Form method="post" action={MANAGER_ACTION} className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="settings" />
          <Field
            label="Portfolio Title"
            name="title"
            value={values.title}
            maxLength={120}
            required
            error={errors?.title}
            onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))}
          />
          <TextareaField
            label="Description"
            name="description"
            value={values.description}
            maxLength={1000}
            error={errors?.description}
            onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          />
          <SwitchField
            label="Make Portfolio Public"
            description="Anyone with the link can see a public portfolio."
            name="isPublic"
            checked={values.isPublic}
            onChange={(e) => setValues((v) => ({ ...v, isPublic: e.target.checked }))}
          />
          <div className="flex gap-2">
            <Button type="submit" disabled={saving}>
              {saving ? <Spinner /> : null} Save Changes
            </Button>
            <Button
              variant="outline"
              disabled={saving}
              onClick={() => {
                setValues(valuesOf(portfolio));
                setEditing(false);
              }}
            >
              Cancel
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-600">Portfolio Title</dt>
            <dd className="text-slate-900 wrap-anywhere">{portfolio.title}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Description</dt>
            <dd className="whitespace-pre-line text-slate-900 wrap-anywhere">
              {portfolio.description || "No description yet"}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Visibility</dt>
            <dd className="text-slate-900">{portfolio.isPublic ? "Public" : "Private"}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}
