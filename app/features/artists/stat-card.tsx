/** Moved to the shared UI kit; import it from "~/components/ui/stat-card". */
export { StatCard } from "~/components/ui/stat-card";
