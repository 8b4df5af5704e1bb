import Download from "lucide-react/icons/download";
import ShieldCheck from "lucide-react/icons/shield-check";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

/**
 * The profile's "Verified CV": the signed CV as JSON, the same with the issuer's keys for
 * checking offline, and a QR code to the profile. Plain links and an image: no JavaScript needed.
 */
export function VerifiedCv({
  slug,
  artistName,
  credentialCount,
}: {
  slug: string;
  artistName: string;
  credentialCount: number;
}) {
  return (
    <Card as="section" aria-labelledby="verified-cv-title" className="drawn-when-near">
      <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-3">
          <h2 id="verified-cv-title" className="flex items-center gap-2 text-lg font-semibold">
            <ShieldCheck aria-hidden className="h-5 w-5 text-brand-700" /> Verified CV
          </h2>
          {credentialCount > 0 ? (
            <>
              <p className="text-slate-700">
                {credentialCount === 1
                  ? "1 verified session"
                  : `${credentialCount} verified sessions`}
                , each signed by GigLedger as an Open Badges credential that anyone can check,
                without having to trust this site.
              </p>
              <div className="flex flex-wrap gap-3">
                <a
                  href={`/artist/${slug}/cv.json`}
                  download={`${slug}-cv.json`}
                  className={buttonClasses("primary", "md")}
                >
                  <Download aria-hidden className="h-4 w-4" /> Download CV (JSON)
                </a>
                <a
                  href={`/artist/${slug}/cv-bundle.json`}
                  download={`${slug}-cv-bundle.json`}
                  className={buttonClasses("outline", "md")}
                >
                  <Download aria-hidden className="h-4 w-4" /> Download for offline checking
                </a>
              </div>
            </>
          ) : (
            <p className="text-slate-700">
              No signed sessions yet. A session is signed once other artists confirm it or a client
              books and rates it here.
            </p>
          )}
          <p className="text-sm text-slate-600">
            Received a CV?{" "}
            <Link to="/verify" className="text-brand-700 underline">
              Check it here
            </Link>
            .
          </p>
        </div>
        <figure className="shrink-0 self-center text-center sm:self-start">
          <img
            src={`/artist/${slug}/qr.svg`}
            alt={`QR code leading to ${artistName}'s profile`}
            width={128}
            height={128}
            loading="lazy"
            className="mx-auto h-32 w-32"
          />
          <figcaption className="mt-1 text-xs text-slate-600">Scan for this profile</figcaption>
        </figure>
      </div>
    </Card>
  );
}
