import { request } from './metrics/http';

/** What rollgen reads of an Argo CD Application: where it synced to and how healthy that is. */
export interface ArgoApplication {
  readonly name: string;
  readonly syncStatus?: string;
  readonly syncRevision?: string;
  readonly health?: string;
  readonly operationPhase?: string;
  readonly operationRevision?: string;
  readonly finishedAt?: string;
}

/** The Application, or why it could not be read (an unreachable Argo CD never counts as healthy). */
export type ArgoReading = { readonly app: ArgoApplication } | { readonly error: string };

/**
 * GET {server}/api/v1/applications/{name} with the token (one request, 10 s deadline). Never throws:
 * a transport error, a non-2xx answer or a body that is not an Application is an `error`.
 */
export async function readArgoApplication(server: string, name: string, token: string): Promise<ArgoReading> {
  const url = `${server.replace(/\/+$/, '')}/api/v1/applications/${encodeURIComponent(name)}`;
  try {
    const res = await request({
      url,
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      insecure: false,
      timeoutMs: 10_000,
    });
    if (res.status < 200 || res.status >= 300) return { error: `Argo CD answered ${res.status} for ${url}` };
    return { app: toApplication(name, JSON.parse(res.body)) };
  } catch (e) {
    return { error: `Argo CD at ${url}: ${(e as Error).message}` };
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an Argo CD Application as JSON, read field by field
function toApplication(name: string, a: any): ArgoApplication {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const s = a?.status ?? {};
  const op = s.operationState ?? {};
  const fields = {
    syncStatus: str(s.sync?.status),
    syncRevision: str(s.sync?.revision),
    health: str(s.health?.status),
    operationPhase: str(op.phase),
    operationRevision: str(op.syncResult?.revision),
    finishedAt: str(op.finishedAt),
  };
  return { name, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}
