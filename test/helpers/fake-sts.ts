import { AwsQueryServer } from './aws-query-server';
import { checkSigV4 } from './sigv4-check';
import type { Seen } from './vendor-server';

/** Temporary credentials the fake hands out for a role. */
export const ROLE_CREDENTIALS = {
  accessKeyId: 'ASIAROLEEXAMPLE',
  secretAccessKey: 'r0le/Secret+Key/EXAMPLEKEYxxxxxxxxxxxxx',
  sessionToken: 'role-session-token-EXAMPLE',
};

/**
 * A loopback STS (query protocol, `Version=2011-06-15`) answering AssumeRole with ROLE_CREDENTIALS,
 * only when the request is validly signed for sts with `baseSecret` (the caller's own credentials).
 */
export class FakeSts extends AwsQueryServer {
  protected readonly xmlns = 'https://sts.amazonaws.com/doc/2011-06-15/';
  protected readonly version = '2011-06-15';
  /** Each AssumeRole: the role, the session name and the region it was signed for. */
  readonly assumed: { roleArn: string; sessionName: string; region: string }[] = [];

  private constructor(private readonly baseSecret: string) {
    super();
  }

  static async start(baseSecret: string): Promise<FakeSts> {
    const f = new FakeSts(baseSecret);
    await f.listen();
    return f;
  }

  protected result(action: string, p: URLSearchParams, req: Seen): string | undefined {
    if (action !== 'AssumeRole') return undefined;
    let region = '';
    try {
      const sig = checkSigV4(req, this.baseSecret);
      if (sig.service !== 'sts') return undefined;
      region = sig.region;
    } catch {
      return undefined;
    }
    this.assumed.push({ roleArn: p.get('RoleArn') ?? '', sessionName: p.get('RoleSessionName') ?? '', region });
    const c = ROLE_CREDENTIALS;
    return `<Credentials><AccessKeyId>${c.accessKeyId}</AccessKeyId><SecretAccessKey>${c.secretAccessKey}</SecretAccessKey><SessionToken>${c.sessionToken}</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials><AssumedRoleUser><Arn>${p.get('RoleArn')}/s</Arn><AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser>`;
  }
}
