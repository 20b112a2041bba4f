import * as http from 'http';
import * as https from 'https';

/** Bodies larger than this are refused: a metric endpoint answering megabytes is a mistake, not a result. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Go's http.Client, which Argo's providers use, stops at the 10th redirect ("stopped after 10
 * redirects", net/http defaultCheckRedirect): at most 9 are followed.
 */
export const MAX_REDIRECTS = 10;

export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly insecure: boolean;
  /** For the whole exchange, redirects included (Go's Client.Timeout). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: string;
  /** The Location header, on a redirect. */
  readonly location?: string;
}

/**
 * One HTTP(S) exchange with a deadline, following redirects as Go's http.Client does (Argo's
 * providers): 301/302/303 turn the request into a GET without body (HEAD stays HEAD), 307/308
 * repeat it with its method and body; a redirect without Location is the answer itself. Once the
 * chain leaves the original host (not the same host name or a subdomain of it, ports aside, as Go
 * judges it) or goes from https to http, no later request carries the request's headers: they are
 * often credentials. Rejects with a readable Error on any transport failure.
 */
export async function request(req: HttpRequest): Promise<HttpResponse> {
  const deadline = Date.now() + req.timeoutMs;
  const origin = new URL(req.url);
  const chain = [req.url];
  let hop: HttpRequest = req;
  let keepHeaders = true;
  for (;;) {
    const res = await send(hop, deadline, req.timeoutMs);
    const next = redirected(hop, res);
    if (!next) return res;
    chain.push(next.url);
    if (chain.length > MAX_REDIRECTS)
      throw new Error(`stopped after ${MAX_REDIRECTS} redirects: ${chain.join(' -> ')}`);
    keepHeaders &&= sameHost(origin, new URL(next.url));
    hop = { ...next, headers: keepHeaders ? req.headers : {} };
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The next request after a redirect answer (net/http redirectBehavior); undefined when `res` is the answer. */
function redirected(hop: HttpRequest, res: HttpResponse): HttpRequest | undefined {
  if (!REDIRECTS.has(res.status) || !res.location) return undefined;
  let url: URL;
  try {
    url = new URL(res.location, hop.url);
  } catch {
    throw new Error(`failed to parse Location header ${JSON.stringify(res.location)} from ${hop.url}`);
  }
  if (res.status === 307 || res.status === 308) return { ...hop, url: url.href };
  const { body: _dropped, ...rest } = hop;
  return { ...rest, url: url.href, method: hop.method === 'HEAD' ? 'HEAD' : 'GET' };
}

/** Go's shouldCopyHeaderOnRedirect: the same host name, or a subdomain of it; the port does not count. */
function sameHost(origin: URL, dest: URL): boolean {
  if (origin.protocol === 'https:' && dest.protocol === 'http:') return false;
  const [o, d] = [origin.hostname, dest.hostname];
  if (d === o) return true;
  // An IP address (IPv6, with a zone) is never a subdomain.
  return !/[:%[]/.test(d) && d.endsWith(`.${o}`);
}

/** One request, one answer (a redirect is an answer here). */
function send(req: HttpRequest, deadline: number, timeoutMs: number): Promise<HttpResponse> {
  const url = new URL(req.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`unsupported URL scheme ${url.protocol} in ${req.url}`));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const late = () => r.destroy(new Error(`no response within ${timeoutMs / 1000}s`));
    const timer = setTimeout(late, Math.max(0, deadline - Date.now()));
    const r = client.request(
      url,
      {
        method: req.method,
        headers: {
          ...req.headers,
          ...(req.body !== undefined ? { 'content-length': Buffer.byteLength(req.body) } : {}),
        },
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !req.insecure } : {}),
        ...(req.signal ? { signal: req.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) r.destroy(new Error(`response larger than ${MAX_RESPONSE_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const location = res.headers.location;
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ...(location ? { location } : {}),
          });
        });
        res.on('error', (e) => (clearTimeout(timer), reject(e)));
      },
    );
    r.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    r.end(req.body);
  });
}
