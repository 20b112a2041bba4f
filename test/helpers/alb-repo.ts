import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

/** One app of a temporary ALB repo: its own host, Deployment, Service, stable Ingress and Kruise Rollout. */
export interface AlbApp {
  readonly name: string;
  /** Kruise steps, YAML indented for `steps:`; default: header, header+weight, weight. */
  readonly steps?: string;
  readonly order?: number;
  readonly listenPorts?: string;
  /** User-written Ingresses of the app on the same listener, with their orders. */
  readonly userIngresses?: readonly { readonly name: string; readonly order: number }[];
}

export const HEADER_THEN_WEIGHT = `
        - replicas: 1
          matches:
            - headers:
                - {name: x-canary, value: "on"}
        - traffic: 30%
          replicas: 1
          matches:
            - headers:
                - {name: x-canary, value: "on"}
        - traffic: 100%
          replicas: 100%`;

export const WEIGHT_ONLY = `
        - traffic: 20%
          replicas: 1
        - traffic: 100%
          replicas: 100%`;

/** Writes rollgen.yaml (apps/* -> deploy/{name}) and every app; returns the repo root. */
export function makeAlbRepo(apps: readonly AlbApp[]): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-alb-'));
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  for (const app of apps) writeApp(path.join(repo, 'apps', app.name), app);
  return repo;
}

export function writeApp(dir: string, app: AlbApp): void {
  fs.mkdirSync(dir, { recursive: true });
  const n = app.name;
  fs.writeFileSync(path.join(dir, 'deployment.yaml'), deployment(n));
  fs.writeFileSync(
    path.join(dir, 'service.yaml'),
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${n}\nspec:\n  selector:\n    app: ${n}\n  ports:\n    - port: 80\n      targetPort: 8080\n`,
  );
  fs.writeFileSync(path.join(dir, 'ingress.yaml'), ingress(n, n, app.order, app.listenPorts));
  for (const u of app.userIngresses ?? [])
    fs.writeFileSync(
      path.join(dir, `ingress-${u.name}.yaml`),
      ingress(u.name, n, u.order, app.listenPorts, `/${u.name}`),
    );
  fs.writeFileSync(path.join(dir, 'rollout.yaml'), rollout(n, app.steps ?? HEADER_THEN_WEIGHT));
}

function deployment(n: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${n}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: ${n}
  template:
    metadata:
      labels:
        app: ${n}
    spec:
      containers:
        - name: app
          image: registry.k8s.io/e2e-test-images/agnhost:2.53
          ports:
            - containerPort: 8080
          readinessProbe:
            httpGet: {path: /, port: 8080}
`;
}

function ingress(name: string, app: string, order?: number, listenPorts?: string, pathValue = '/'): string {
  const annotations = [
    ...(order !== undefined ? [`    alb.ingress.kubernetes.io/order: "${order}"`] : []),
    ...(listenPorts !== undefined ? [`    alb.ingress.kubernetes.io/listen-ports: '${listenPorts}'`] : []),
  ];
  return `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: ${name}
${annotations.length > 0 ? `  annotations:\n${annotations.join('\n')}\n` : ''}spec:
  ingressClassName: alb
  rules:
    - host: ${app}.example.com
      http:
        paths:
          - path: ${pathValue}
            pathType: Prefix
            backend:
              service:
                name: ${app}
                port:
                  number: 80
`;
}

function rollout(n: string, steps: string): string {
  return `apiVersion: rollouts.kruise.io/v1beta1
kind: Rollout
metadata:
  name: ${n}
spec:
  workloadRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${n}
  strategy:
    canary:
      enableExtraWorkloadForCanary: true
      steps:${steps}
      trafficRoutings:
        - service: ${n}
          ingress:
            classType: aliyun-alb
            name: ${n}
`;
}

export interface RenderedIngress {
  readonly name: string;
  readonly annotations: Readonly<Record<string, string>>;
}

/** The Ingresses of a multi-document render. */
export function ingressesOf(yamlText: string): RenderedIngress[] {
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as { kind?: string; metadata: { name: string; annotations?: Record<string, string> } } | null)
    .filter((o): o is NonNullable<typeof o> => o !== null && o.kind === 'Ingress')
    .map((o) => ({ name: o.metadata.name, annotations: o.metadata.annotations ?? {} }));
}
