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
  // Sessions, their media and sharing links
  route("sessions/:sessionId", "routes/sessions.$sessionId.tsx"),
  route("sessions/:sessionId/media", "routes/sessions.$sessionId.media.tsx"),
  route("join-session/:token?", "routes/join-session.tsx"),
  // Bookings, availability, messages and ratings
  route("availability", "routes/availability.tsx"),
  route("bookings", "routes/bookings.tsx"),
  route("bookings/:bookingId", "routes/bookings.$bookingId.tsx"),
  route("bookings/:bookingId/events", "routes/bookings.$bookingId.events.tsx"),
  route("client-bookings", "routes/client-bookings.tsx"),
  // Portfolio, Instagram settings, diagnostics
  route("portfolio/:id", "routes/portfolio.$id.tsx"),
  route("portfolio-manager", "routes/portfolio-manager.tsx"),
  route("settings/instagram", "routes/settings.instagram.tsx"),
  route("diagnostic", "routes/diagnostic.tsx"),
  route("domain-diagnostic", "routes/diagnostic.tsx", { id: "routes/domain-diagnostic" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
