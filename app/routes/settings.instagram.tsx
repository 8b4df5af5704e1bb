import { data } from "react-router";

// Placeholder until this route is built; answers 404 like an unknown page.
export function loader() {
  throw data(null, { status: 404 });
}
