/**
 * "Did you mean" for names the user typed (apps of rollgen.yaml, annotation keys). Commander already suggests
 * unknown commands and options; its helper is not exported, and a dependency for twenty lines of
 * edit distance is not worth its weight, so this is a plain Levenshtein distance.
 */
export function suggestName(typed: string, known: readonly string[]): string | undefined {
  // Close enough to be a typo: at most a third of the name, and never more than 3 edits.
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Insertions, deletions and substitutions turning `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
