const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Row ids are UUIDs: anything else in a URL or a form is simply "not found", never a query. */
export const isUuid = (value: unknown): boolean => typeof value === "string" && UUID.test(value);
