import { AwsQueryServer } from './aws-query-server';

/**
 * A loopback Elastic Load Balancing v2 (query protocol, `Version=2015-12-01`) holding one application
 * load balancer as the AWS Load Balancer Controller tags it. Tests move its weights and targets.
 */
export interface FakeTargetGroup {
  readonly arn: string;
  /** `ingress.k8s.aws/resource`: `<ns>/<ingress>-<service>:<port>`. */
  readonly resource: string;
  /** Registered targets, `ip:port`. */
  targets: string[];
}

export interface FakeRule {
  readonly priority: string;
  /** Target group ARN -> weight. */
  forward: Record<string, number>;
}

export class FakeElbv2 extends AwsQueryServer {
  protected readonly xmlns = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';
  protected readonly version = '2015-12-01';
  readonly lbArn =
    'arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/k8s-shop-web-0123456789/50dc6c495c0c9188';
  readonly groups: FakeTargetGroup[] = [];
  readonly rules: FakeRule[] = [];
  /** The stack tag (`<ns>/<ingress>` or the IngressGroup's name). */
  stack = '';
  /** Set when the controller tags its cluster. */
  cluster?: string;

  /** Back to no target groups, rules, failure or calls (one server for a test file). */
  reset(): void {
    this.calls.length = 0;
    this.groups.length = 0;
    this.rules.length = 0;
    this.signedBy.clear();
    this.failure = undefined;
    this.stack = '';
    this.cluster = undefined;
  }

  static async start(): Promise<FakeElbv2> {
    const f = new FakeElbv2();
    await f.listen();
    return f;
  }

  /** A target group per `service:port` of the Ingress, as the controller names them. */
  addGroup(ns: string, ingress: string, service: string, port: string): FakeTargetGroup {
    const n = this.groups.length + 1;
    const g = {
      arn: `arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/k8s-${service}-${n}/${n}abc`,
      resource: `${ns}/${ingress}-${service}:${port}`,
      targets: [],
    };
    this.groups.push(g);
    return g;
  }

  group(service: string): FakeTargetGroup {
    return this.groups.find((g) => g.resource.includes(`-${service}:`))!;
  }

  /** The controller's forward rule: `{service: weight}` over the target groups. */
  setForward(priority: string, weights: Record<string, number>): void {
    const forward = Object.fromEntries(Object.entries(weights).map(([s, w]) => [this.group(s).arn, w]));
    const rule = this.rules.find((r) => r.priority === priority);
    if (rule) rule.forward = forward;
    else this.rules.push({ priority, forward });
  }

  protected result(action: string, p: URLSearchParams): string | undefined {
    const members = (items: readonly string[]) => items.map((i) => `<member>${i}</member>`).join('');
    const tags = (t: Record<string, string>) =>
      members(Object.entries(t).map(([k, v]) => `<Key>${k}</Key><Value>${v}</Value>`));
    const listener = (port: number) => `${this.lbArn.replace(':loadbalancer/', ':listener/')}/${port}`;
    switch (action) {
      case 'DescribeLoadBalancers':
        return `<LoadBalancers>${members([
          `<LoadBalancerArn>${this.lbArn}</LoadBalancerArn><LoadBalancerName>k8s-shop-web-0123456789</LoadBalancerName><Type>application</Type>`,
          `<LoadBalancerArn>arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/other/1</LoadBalancerArn><LoadBalancerName>other</LoadBalancerName><Type>application</Type>`,
        ])}</LoadBalancers>`;
      case 'DescribeTags': {
        const arns = [...p.keys()].filter((k) => k.startsWith('ResourceArns.member.')).map((k) => p.get(k)!);
        return `<TagDescriptions>${members(arns.map((a) => `<ResourceArn>${a}</ResourceArn><Tags>${tags(this.tagsOf(a))}</Tags>`))}</TagDescriptions>`;
      }
      case 'DescribeTargetGroups':
        if (p.get('LoadBalancerArn') !== this.lbArn) return '<TargetGroups/>';
        return `<TargetGroups>${members(this.groups.map((g) => `<TargetGroupArn>${g.arn}</TargetGroupArn><TargetType>ip</TargetType>`))}</TargetGroups>`;
      case 'DescribeListeners':
        return `<Listeners>${members([80, 443].map((port) => `<ListenerArn>${listener(port)}</ListenerArn><Port>${port}</Port><Protocol>${port === 80 ? 'HTTP' : 'HTTPS'}</Protocol>`))}</Listeners>`;
      case 'DescribeRules':
        return `<Rules>${members([
          ...this.rules.map(
            (r) => `<Priority>${r.priority}</Priority><Actions>${members([this.forwardXml(r.forward)])}</Actions>`,
          ),
          '<Priority>default</Priority><IsDefault>true</IsDefault><Actions><member><Type>fixed-response</Type></member></Actions>',
        ])}</Rules>`;
      case 'DescribeTargetHealth': {
        const g = this.groups.find((x) => x.arn === p.get('TargetGroupArn'));
        if (!g) return undefined;
        return `<TargetHealthDescriptions>${members(
          g.targets.map((t) => {
            const [ip, port] = t.split(':');
            return `<Target><Id>${ip}</Id><Port>${port}</Port></Target><TargetHealth><State>healthy</State></TargetHealth>`;
          }),
        )}</TargetHealthDescriptions>`;
      }
    }
    return undefined;
  }

  private forwardXml(forward: Record<string, number>): string {
    const groups = Object.entries(forward)
      .map(([arn, w]) => `<member><TargetGroupArn>${arn}</TargetGroupArn><Weight>${w}</Weight></member>`)
      .join('');
    return `<Type>forward</Type><ForwardConfig><TargetGroups>${groups}</TargetGroups></ForwardConfig>`;
  }

  private tagsOf(arn: string): Record<string, string> {
    const cluster: Record<string, string> = this.cluster ? { 'elbv2.k8s.aws/cluster': this.cluster } : {};
    if (arn === this.lbArn) return { 'ingress.k8s.aws/stack': this.stack, ...cluster };
    const g = this.groups.find((x) => x.arn === arn);
    if (g) return { 'ingress.k8s.aws/stack': this.stack, 'ingress.k8s.aws/resource': g.resource, ...cluster };
    return { 'ingress.k8s.aws/stack': 'other/other' };
  }
}
