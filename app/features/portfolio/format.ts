/** `Nov 21, 2026` in the app's time zone, the same on the server and in the browser. */
export function formatDay(date: Date | string, timeZone: string) {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone }).format(new Date(date));
}

export const fileUrl = (key: string) => `/files/${key}`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
