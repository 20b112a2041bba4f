import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Seen } from './vendor-server';

/**
 * A loopback server speaking an AWS query protocol as the AWS SDK sends it (POST, form-encoded
 * `Action=...&Version=...`, XML answers). A fake service says its XML namespace, version and the
 * result of each action; this records the calls and which access key signed each of them.
 */
export abstract class AwsQueryServer {
  readonly calls: string[] = [];
  /** Set: every call answers this error (`Throttling` 400, `InternalFailure` 500, ...). */
  failure?: { readonly status: number; readonly code: string };
  /** Credentials the SDK signed with (the access key id of each request's Authorization header). */
  readonly signedBy = new Set<string>();
  private server?: http.Server;

  /** The service's XML namespace and API version (`Version=` of every request). */
  protected abstract readonly xmlns: string;
  protected abstract readonly version: string;
  /** The XML inside `<ActionResult>`, or undefined for an action the fake does not know. */
  protected abstract result(action: string, p: URLSearchParams, req: Seen): string | undefined;

  protected async listen(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => this.answer(req, body, res));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server!.close(() => r()));
  }

  private answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const p = new URLSearchParams(body);
    const action = p.get('Action') ?? '';
    this.calls.push(action);
    const key = /Credential=([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1];
    if (key) this.signedBy.add(key);
    res.setHeader('content-type', 'text/xml');
    if (p.get('Version') !== this.version || req.method !== 'POST') return this.error(res, 400, 'InvalidAction');
    if (this.failure) return this.error(res, this.failure.status, this.failure.code);
    const result = this.result(action, p, { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (result === undefined) return this.error(res, 400, 'InvalidAction');
    res.end(
      `<${action}Response xmlns="${this.xmlns}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></${action}Response>`,
    );
  }

  protected error(res: http.ServerResponse, status: number, code: string): void {
    res.statusCode = status;
    res.end(
      `<ErrorResponse xmlns="${this.xmlns}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${code} (fake)</Message></Error><RequestId>r-2</RequestId></ErrorResponse>`,
    );
  }
}
