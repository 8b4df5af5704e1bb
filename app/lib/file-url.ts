/** Where the server (`/files/*` in server/app.ts) serves a stored file: its storage key's address. */
export const fileUrl = (key: string) => `/files/${key}`;
