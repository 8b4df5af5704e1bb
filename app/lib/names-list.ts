const LIST = new Intl.ListFormat("en-IN", { type: "conjunction" });

/** Names as a sentence reads them: "A", "A and B", "A, B and C". */
export function namesList(names: string[]): string {
  return LIST.format(names);
}
