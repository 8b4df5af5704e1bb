export function meta() {
  return [{ title: "Floor" }, { name: "description", content: "A bare React Router page." }];
}

export function loader() {
  return { greeting: "A bare React Router page" };
}

export default function Home({ loaderData }: { loaderData: { greeting: string } }) {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-3xl font-bold">{loaderData.greeting}</h1>
      <p className="mt-4 text-slate-700">Server-rendered with its loader's data, then hydrated.</p>
    </main>
  );
}
