import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/dev.outbox";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Development outbox", description: "Mails the local app would have sent." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Never served by a public app, whatever its mail transport.
  if (context.env.isPublic || context.env.mailTransport !== "outbox") notFound();
  const mails = await context.mailer.outbox();
  // `?to=` keeps one recipient's mails: what a test waiting for its mail asks for.
  const to = new URL(request.url).searchParams.get("to");
  return { mails: to ? mails.filter((mail) => mail.to === to) : mails };
}

const LINK = /(https?:\/\/[^\s"'<>]+)/g;

function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {text.split(LINK).map((part, i) =>
        /^https?:\/\//.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder.
          <a key={i} href={part} className="break-all text-brand-700 underline">
            {part}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder.
          <span key={i}>{part}</span>
        ),
      )}
    </>
  );
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-2xl font-bold">Development outbox</h1>
      <p className="mt-2 text-slate-600">
        No SMTP server is configured, so this local app keeps the mails it sends here (newest
        first). Set <code>SMTP_URL</code> to deliver them.
      </p>
      {loaderData.mails.length === 0 ? <p className="mt-8 text-slate-600">No mails yet.</p> : null}
      <ol className="mt-8 space-y-4">
        {loaderData.mails.map((mail) => (
          <li key={mail.id}>
            <article
              aria-label={`Mail to ${mail.to}: ${mail.subject}`}
              className="rounded-xl border border-slate-200 p-4"
            >
              <h2 className="font-semibold">{mail.subject}</h2>
              <p className="text-sm text-slate-500">
                To {mail.to} · {new Date(mail.sentAt).toLocaleString("en-US")}
              </p>
              <p className="mt-3 whitespace-pre-wrap text-sm">
                <TextWithLinks text={mail.text} />
              </p>
            </article>
          </li>
        ))}
      </ol>
    </main>
  );
}
