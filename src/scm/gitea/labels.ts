import type { GiteaRepo } from './repo';

interface ApiLabel {
  readonly id: number;
  readonly name: string;
}

/** The colour a label rollgen creates gets (Gitea requires one). */
const NEW_LABEL_COLOR = '#c5def5';

/**
 * Gitea's PR labels are ids: names resolve through one paged GET /repos/{o}/{r}/labels per run
 * (remembered), and a name the repository lacks is created once (POST /labels), as GitHub creates
 * a label it is given.
 */
export class LabelIds {
  private known: Promise<Map<string, number>> | undefined;

  constructor(private readonly gh: GiteaRepo) {}

  async idsOf(names: readonly string[]): Promise<number[]> {
    if (names.length === 0) return [];
    const known = await this.load();
    const ids: number[] = [];
    for (const name of names) {
      let id = known.get(name);
      if (id === undefined) {
        const { data } = await this.gh.http.request<ApiLabel>('POST', `${this.gh.path}/labels`, {
          body: { name, color: NEW_LABEL_COLOR, description: 'set by rollgen' },
        });
        known.set(name, (id = data.id));
      }
      ids.push(id);
    }
    return ids;
  }

  private load(): Promise<Map<string, number>> {
    this.known ??= this.gh.http
      .pages<ApiLabel>(`${this.gh.path}/labels`, { limit: 50 })
      .then((all) => new Map(all.map((l) => [l.name, l.id])));
    // A failed read is not remembered: the next call asks again.
    this.known.catch(() => (this.known = undefined));
    return this.known;
  }
}
