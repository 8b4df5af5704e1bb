import LoaderCircle from "lucide-react/icons/loader-circle";

export function Spinner({ className = "h-4 w-4" }: { className?: string }) {
  return <LoaderCircle aria-hidden className={`animate-spin ${className}`} />;
}
