import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("discover", "routes/discover.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("data-deletion", "routes/data-deletion.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
