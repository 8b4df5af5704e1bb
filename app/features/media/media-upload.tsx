import Upload from "lucide-react/icons/upload";
import { useId, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/input-classes";
import { useToast } from "~/components/ui/toast";
import { useWholeStylesheet } from "~/lib/page-styles";
import { ACCEPTED_MEDIA, formatFileSize, type MediaLimitsMb } from "./media-type";

const FAILED = "Failed to upload media. Please try again.";

/** Sends the file as the request body, so the progress bar shows real bytes on the wire. */
function uploadFile(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; body: { error?: string } | null }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(file);
  });
}

function limitFor(file: File, limits: MediaLimitsMb) {
  if (file.type.startsWith("image/")) return limits.image;
  if (file.type.startsWith("audio/")) return limits.audio;
  if (file.type.startsWith("video/")) return limits.video;
  return null;
}

export function MediaUpload({ sessionId, limits }: { sessionId: string; limits: MediaLimitsMb }) {
  // The form is drawn in the browser only, so the page's own rules lack its classes.
  const styled = useWholeStylesheet();
  const toast = useToast();
  const revalidator = useRevalidator();
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState("");
  // New media is offered to the portfolio: on unless the artist unticks it (issue 43).
  const [toPortfolio, setToPortfolio] = useState(true);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (!styled) {
    return (
      <p className="text-sm text-slate-600">Uploading media needs JavaScript in your browser.</p>
    );
  }

  const choose = (picked: File | null) => {
    setError(null);
    setFile(picked);
    const limit = picked ? limitFor(picked, limits) : null;
    if (picked && limit && picked.size > limit * 1024 * 1024)
      setError(
        `This file is ${formatFileSize(picked.size)}; the limit for this type is ${limit} MB.`,
      );
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError("Please choose a file to upload.");
      return;
    }
    setError(null);
    setProgress(0);
    const params = new URLSearchParams({ fileName: file.name });
    if (description.trim()) params.set("description", description.trim());
    params.set("portfolio", toPortfolio ? "1" : "0");
    const { status, body } = await uploadFile(
      `/api/sessions/${sessionId}/media?${params}`,
      file,
      setProgress,
    );
    setProgress(null);
    if (status === 201) {
      toast({
        title: "Media Uploaded",
        description: toPortfolio
          ? `${file.name} was added to this session and your portfolio.`
          : `${file.name} was added to this session.`,
      });
      setFile(null);
      setDescription("");
      if (fileRef.current) fileRef.current.value = "";
      revalidator.revalidate();
      return;
    }
    const message = body?.error ?? FAILED;
    setError(message);
    toast({ title: "Upload Failed", description: message, variant: "destructive" });
  };

  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-xl border border-dashed border-slate-300 bg-slate-50 p-4"
      aria-label="Upload media"
    >
      <div>
        <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium text-slate-800">
          Photo, audio or video
        </label>
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept={ACCEPTED_MEDIA}
          disabled={uploading}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-600 file:px-3 file:py-2 file:text-sm file:font-medium file:text-white"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          JPG, PNG, GIF or WebP up to {limits.image} MB · MP3 or WAV up to {limits.audio} MB · MP4
          or MOV up to {limits.video} MB
        </p>
        {file ? (
          <p className="mt-1 text-sm text-slate-700">
            {file.name} · {formatFileSize(file.size)}
          </p>
        ) : null}
      </div>
      <div>
        <label
          htmlFor={`${id}-description`}
          className="mb-1 block text-sm font-medium text-slate-800"
        >
          Description (optional)
        </label>
        <input
          id={`${id}-description`}
          value={description}
          maxLength={500}
          disabled={uploading}
          onChange={(e) => setDescription(e.target.value)}
          className={inputClasses}
        />
      </div>
      <label className="flex items-center gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={toPortfolio}
          disabled={uploading}
          onChange={(e) => setToPortfolio(e.target.checked)}
          className="h-5 w-5 rounded border-slate-300 accent-brand-600"
        />
        Add to my portfolio
      </label>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
      {uploading ? (
        <div>
          <label htmlFor={`${id}-progress`} className="text-sm text-slate-700">
            Uploading... {percent}%
          </label>
          <progress
            id={`${id}-progress`}
            max={100}
            value={percent}
            className="mt-1 h-2 w-full overflow-hidden rounded-full accent-brand-600"
          />
        </div>
      ) : null}
      <Button type="submit" disabled={uploading}>
        <Upload aria-hidden className="h-4 w-4" /> {uploading ? "Uploading..." : "Upload"}
      </Button>
    </form>
  );
}
