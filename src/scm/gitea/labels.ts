import { GiteaHttpError } from './http';
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
      if (id === undefined) known.set(name, (id = await this.create(name)));
      ids.push(id);
    }
    return ids;
  }

  /**
   * POST /labels, not retried blindly (Gitea would make a second label of the same name): after a
   * 5xx or no answer, the labels are listed again and the post is repeated only if it did not land.
   */
  private async create(name: string): Promise<number> {
    const post = async () =>
      (
        await this.gh.http.request<ApiLabel>('POST', `${this.gh.path}/labels`, {
          body: { name, color: NEW_LABEL_COLOR, description: 'set by rollgen' },
          once: true,
        })
      ).data.id;
    try {
      return await post();
    } catch (error) {
      if (!(error instanceof GiteaHttpError) || (error.status !== undefined && error.status < 500)) throw error;
      const again = await this.gh.http.pages<ApiLabel>(`${this.gh.path}/labels`, { limit: 50 });
      return again.find((l) => l.name === name)?.id ?? (await post());
    }
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
