/**
 * "Did you mean", one rule for everything the user names: commands and options (src/cli.ts hands
 * commander's unknown-command and unknown-option errors here), apps of rollgen.yaml, fields and
 * annotation keys. A dependency for twenty lines of edit distance is not worth its weight.
 */
export function suggestName(typed: string, known: readonly string[]): string | undefined {
  const limit = typoLimit(typed);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Close enough to be a typo: a third of the name, at least one edit (a swap in `shpo`), at most 3. */
const typoLimit = (typed: string) => Math.min(3, Math.max(1, Math.floor(typed.length / 3)));

/**
 * Insertions, deletions, substitutions and swaps of two neighbours turning `a` into `b` (optimal
 * string alignment, the Damerau distance without editing a substring twice): `shpo` is one edit
 * from `shop`, as a person sees it, not two.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}
