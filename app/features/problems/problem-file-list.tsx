// A problem report's files as its problem page and the operator's page list them: each a download
// (for the parties and operators only), its side, size and SHA-256 fingerprint.
import { formatFileSize } from "~/features/media/media-type";

export type ProblemFileView = {
  id: string;
  side: string;
  name: string;
  size: string;
  sha256: string;
};

/** What the list shows of each file, for a loader to send. */
export const problemFileViews = (
  files: { id: string; side: string; name: string; sizeBytes: number; sha256: string }[],
): ProblemFileView[] =>
  files.map((f) => ({
    id: f.id,
    side: f.side,
    name: f.name,
    size: formatFileSize(f.sizeBytes),
    sha256: f.sha256,
  }));

export function ProblemFileList({
  bookingId,
  files,
  className = "mt-3 space-y-1 text-sm",
}: {
  bookingId: string;
  files: ProblemFileView[];
  className?: string;
}) {
  if (files.length === 0) return null;
  return (
    <ul className={className}>
      {files.map((file) => (
        <li key={file.id} className="[overflow-wrap:anywhere]">
          <a
            href={`/bookings/${bookingId}/problem/files/${file.id}`}
            className="text-brand-700 underline"
          >
            {file.name}
          </a>{" "}
          ({file.side === "answer" ? "with the answer" : "with the report"}, {file.size}) · SHA-256{" "}
          <code className="text-xs">{file.sha256}</code>
        </li>
      ))}
    </ul>
  );
}
