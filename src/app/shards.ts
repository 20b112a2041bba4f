import { sha256Hex } from '../render/sha256';

/** `--shard K/N`: the K-th of N parts of the apps (1 <= K <= N). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** "K/N" -> Shard; undefined when it is not two whole numbers with 1 <= K <= N. */
export function parseShard(text: string): Shard | undefined {
  const m = /^([1-9][0-9]{0,5})\/([1-9][0-9]{0,5})$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index <= count ? { index, count } : undefined;
}

/**
 * The apps that must be handled by one run: those sharing a coupling key (an nginx host+path claim,
 * a provider with repo-wide orders such as ALB, app-index.ts) and every `group` (all targets of the
 * fleet waves, which run one after another). Union-find; each component sorted, the components
 * sorted by their first (smallest) name, so the result depends on nothing but the inputs.
 */
export function coupledGroups(
  apps: readonly string[],
  keysOf: (app: string) => readonly string[],
  groups: readonly (readonly string[])[] = [],
): string[][] {
  const parent = new Map(apps.map((a) => [a, a] as const));
  const find = (a: string): string => {
    let root = a;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let at = a; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    // The smaller name is the root, so a component's root is its smallest name whatever the order.
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  const firstWithKey = new Map<string, string>();
  for (const app of apps)
    for (const key of keysOf(app)) {
      const first = firstWithKey.get(key);
      if (first === undefined) firstWithKey.set(key, app);
      else union(first, app);
    }
  for (const group of groups) {
    const members = group.filter((a) => parent.has(a));
    for (const a of members.slice(1)) union(members[0], a);
  }
  const byRoot = new Map<string, string[]>();
  for (const app of [...apps].sort()) {
    const root = find(app);
    const members = byRoot.get(root);
    if (members) members.push(app);
    else byRoot.set(root, [app]);
  }
  return [...byRoot.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/**
 * The shard (1..count) of a group of coupled apps: a stable hash of its smallest name. It depends on
 * that group alone, so adding or removing other apps never moves an app to another shard (a shard's
 * concurrency group keeps serializing the same apps across runs); only a change of its coupling or
 * of the shard count can. Thousands of apps spread evenly; one large coupled group stays whole.
 */
export function shardOfGroup(group: readonly string[], count: number): number {
  const smallest = group.reduce((a, b) => (b < a ? b : a));
  return (parseInt(sha256Hex(`rollgen-shard\u0000${smallest}`).slice(0, 12), 16) % count) + 1;
}

/** The apps of one shard, sorted. */
export function appsOfShard(groups: readonly (readonly string[])[], shard: Shard): string[] {
  return groups
    .filter((g) => shardOfGroup(g, shard.count) === shard.index)
    .flat()
    .sort();
}
