import * as http from 'http';
import * as https from 'https';

/** Bodies larger than this are refused: a metric endpoint answering megabytes is a mistake, not a result. */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly insecure: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: string;
}

/** One HTTP(S) request with a deadline; rejects with a readable Error on any transport failure. */
export function request(req: HttpRequest): Promise<HttpResponse> {
  const url = new URL(req.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`unsupported URL scheme ${url.protocol} in ${req.url}`));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => r.destroy(new Error(`no response within ${req.timeoutMs / 1000}s`)), req.timeoutMs);
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
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
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
