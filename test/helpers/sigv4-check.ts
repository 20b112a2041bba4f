import { createHash, createHmac } from 'crypto';
import { Seen } from './vendor-server';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/**
 * Checks a request's AWS Signature Version 4 as AWS documents it (canonical request, string to sign,
 * derived key), written out here so the test does not check the signer with itself.
 * Returns the credential scope's service and region when the signature holds, else throws.
 */
export function checkSigV4(req: Seen, secretKey: string): { accessKey: string; region: string; service: string } {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) throw new Error(`not a SigV4 Authorization header: ${auth}`);
  const [, accessKey, date, region, service, signedHeaders, signature] = m;
  const url = new URL(req.url, 'http://x');
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const headers = names.map((h) => `${h}:${String(req.headers[h]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, sha256(req.body)].join('\n');
  const amzDate = String(req.headers['x-amz-date']);
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
  const expected = hmac(key, toSign).toString('hex');
  if (expected !== signature) throw new Error(`SigV4 signature does not match (signed headers ${signedHeaders})`);
  return { accessKey, region, service };
}
