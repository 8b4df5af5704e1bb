import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("discover", "routes/discover.tsx"),
  route("verification", "routes/verification.tsx"),
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
  // The signed performance CV, its offline bundle, the profile's QR code; checking a CV
  route("artist/:idOrSlug/cv.json", "routes/artist.$idOrSlug.cv-json.ts"),
  route("artist/:idOrSlug/cv-bundle.json", "routes/artist.$idOrSlug.cv-bundle.ts"),
  route("artist/:idOrSlug/qr.svg", "routes/artist.$idOrSlug.qr-svg.ts"),
  route(".well-known/did.json", "routes/well-known.did-json.ts"),
  route("credentials/status/:listNumber", "routes/credentials.status.$listNumber.ts"),
  route("verify", "routes/verify.tsx"),
  route("profile/:id", "routes/profile.tsx"),
  route("artist-discovery", "routes/artist-discovery.tsx"),
  route("artist-dashboard/:artistId?", "routes/artist-dashboard.tsx"),
  // Sessions, their media and sharing links
  route("sessions/new", "routes/sessions.new.tsx"),
  route("sessions/:sessionId", "routes/sessions.$sessionId.tsx"),
  route("sessions/:sessionId/media", "routes/sessions.$sessionId.media.tsx"),
  route("join-session/:token?", "routes/join-session.tsx"),
  // Bookings, availability, messages and ratings
  route("availability", "routes/availability.tsx"),
  route("bookings", "routes/bookings.tsx"),
  route("bookings/:bookingId", "routes/bookings.$bookingId.tsx"),
  route("bookings/:bookingId/events", "routes/bookings.$bookingId.events.tsx"),
  route("bookings/:bookingId/calendar.ics", "routes/bookings.$bookingId.ics.tsx"),
  // The booking's signed agreement: its page, its exact JSON and its PDF (two parties only)
  route("bookings/:bookingId/agreement", "routes/bookings.$bookingId.agreement.tsx"),
  route("bookings/:bookingId/agreement.json", "routes/bookings.$bookingId.agreement-json.ts"),
  route("bookings/:bookingId/agreement.pdf", "routes/bookings.$bookingId.agreement-pdf.ts"),
  // Money through the platform (decision 055): pay what is due, come back from the provider
  route("bookings/:bookingId/pay", "routes/bookings.$bookingId.pay.ts"),
  route("payments/return", "routes/payments.return.ts"),
  route("settings/payouts", "routes/settings.payouts.tsx"),
  route("client-bookings", "routes/client-bookings.tsx"),
  route("rate/:token", "routes/rate.$token.tsx"),
  // Calendar feeds out and calendars in (decision 016)
  route("calendars", "routes/calendars.tsx"),
  route("calendar/:file", "routes/calendar.$file.tsx"),
  // Portfolio, Instagram settings, diagnostics
  route("portfolio/:id", "routes/portfolio.$id.tsx"),
  route("portfolio/:id/report", "routes/portfolio.$id.report.tsx"),
  route("portfolio-manager", "routes/portfolio-manager.tsx"),
  route("settings/instagram", "routes/settings.instagram.tsx"),
  route("diagnostic", "routes/diagnostic.tsx"),
  route("domain-diagnostic", "routes/diagnostic.tsx", { id: "routes/domain-diagnostic" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
