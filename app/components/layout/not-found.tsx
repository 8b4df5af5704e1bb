import { ErrorPage } from "./error-page";

export function NotFound() {
  return (
    <ErrorPage
      code="404"
      heading="Oops! Page not found"
      message="The page you were looking for does not exist or has moved."
    />
  );
}
