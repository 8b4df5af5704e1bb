import type { Config } from "@react-router/dev/config";

// The floor: the same framework settings as the app (../../react-router.config.ts), one route.
export default { ssr: true } satisfies Config;
