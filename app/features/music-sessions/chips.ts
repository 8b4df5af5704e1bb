/**
 * Chip lists (instruments, genres, tags): added one at a time, blank after trimming ignored,
 * duplicates ignored (case-insensitive), each removable. Pure, shared by the form and the server.
 */
const MAX_CHIPS = 20;
const MAX_CHIP_LENGTH = 40;

export function addChip(list: readonly string[], raw: string): string[] {
  const value = raw.trim().replace(/\s+/g, " ").slice(0, MAX_CHIP_LENGTH);
  if (!value || list.length >= MAX_CHIPS) return [...list];
  if (list.some((item) => item.toLowerCase() === value.toLowerCase())) return [...list];
  return [...list, value];
}

export function removeChip(list: readonly string[], value: string): string[] {
  return list.filter((item) => item !== value);
}

/** Without JavaScript the chips arrive as one comma-separated field; with it, one field per chip. */
export function chipsFromForm(values: readonly unknown[]): string[] {
  let list: string[] = [];
  for (const v of values) {
    if (typeof v !== "string") continue;
    for (const part of v.split(",")) list = addChip(list, part);
  }
  return list;
}
