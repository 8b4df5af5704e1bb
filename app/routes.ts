import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("discover", "routes/discover.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("data-deletion", "routes/data-deletion.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/sign-out", "routes/auth.sign-out.tsx"),
  route("settings", "routes/settings.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("profile-setup", "routes/profile-setup.tsx"),
  route("artist-profile/edit", "routes/artist-profile.edit.tsx"),
  route("artist/:idOrSlug", "routes/artist.tsx"),
  route("profile/:id", "routes/profile.tsx"),
  route("artist-discovery", "routes/artist-discovery.tsx"),
  route("artist-dashboard/:artistId?", "routes/artist-dashboard.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
