import * as fs from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { parse } from 'yaml';

type Env = Readonly<Record<string, string | undefined>>;

/** Where and how to reach the API server of the kubeconfig's current context. */
export interface KubeAccess {
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecure: boolean;
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/**
 * The current context of a kubeconfig: server, CA, and a bearer token (inline, a token file, or an
 * exec plugin such as `aws eks get-token`) or a client certificate. Throws a readable Error naming
 * what is missing; the file's contents (tokens, keys) never appear in a message.
 */
export function readKubeconfig(file: string, env: Env): KubeAccess {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`the kubeconfig ${file} cannot be read`);
  }
  const doc = (parse(text) ?? {}) as Record<string, unknown>;
  const named = (list: unknown, name: unknown, what: string) => {
    const found = (Array.isArray(list) ? list : []).find((x) => x?.name === name)?.[what];
    if (!found) throw new Error(`the kubeconfig ${file} has no ${what} named ${String(name)}`);
    return found as Record<string, unknown>;
  };
  const context = named(doc.contexts, doc['current-context'], 'context');
  const cluster = named(doc.clusters, context.cluster, 'cluster');
  const user = context.user === undefined ? {} : named(doc.users, context.user, 'user');
  const dir = path.dirname(file);
  const bytes = (data: unknown, file: unknown) =>
    typeof data === 'string'
      ? Buffer.from(data, 'base64')
      : typeof file === 'string'
        ? fs.readFileSync(path.resolve(dir, file))
        : undefined;
  const ca = bytes(cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = bytes(user['client-certificate-data'], user['client-certificate']);
  const key = bytes(user['client-key-data'], user['client-key']);
  const token = tokenOf(user, dir, env);
  return {
    server: String(cluster.server ?? ''),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(token ? { token } : {}),
  };
}

function tokenOf(user: Record<string, unknown>, dir: string, env: Env): string | undefined {
  if (typeof user.token === 'string') return user.token;
  if (typeof user.tokenFile === 'string') return fs.readFileSync(path.resolve(dir, user.tokenFile), 'utf8').trim();
  const exec = user.exec as { command?: string; args?: string[]; env?: { name: string; value: string }[] } | undefined;
  if (!exec?.command) return undefined;
  const extra = Object.fromEntries((exec.env ?? []).map((e) => [e.name, e.value]));
  let out: string;
  try {
    out = execFileSync(exec.command, exec.args ?? [], {
      env: { ...env, ...extra },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
  } catch (e) {
    throw new Error(
      `the kubeconfig's exec credential plugin ${exec.command} failed: ${(e as Error).message.split('\n')[0]}`,
    );
  }
  const token = (JSON.parse(out) as { status?: { token?: string } }).status?.token;
  if (!token) throw new Error(`the kubeconfig's exec credential plugin ${exec.command} gave no status.token`);
  return token;
}
