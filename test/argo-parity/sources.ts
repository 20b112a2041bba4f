import * as fs from 'fs';
import * as path from 'path';
import { makeAppDir } from '../helpers/rollout-dir';

/** A temp app dir whose src/ holds `files` (name -> YAML text); removed by the caller with fs.rmSync. */
export function sourceDir(prefix: string, files: Readonly<Record<string, string>>): string {
  const dir = makeAppDir(prefix);
  fs.mkdirSync(path.join(dir, 'src'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'src', name), text);
  return dir;
}

/** `sourceDir` for one test file: every directory it makes is removed after the file's tests. */
export function tempSources(prefix: string): (files: Readonly<Record<string, string>>) => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return (files) => {
    const dir = sourceDir(prefix, files);
    dirs.push(dir);
    return dir;
  };
}

/** 1-based line of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`"${needle}" is not in the text`);
  return i + 1;
}

/** A Service `name` selecting app: `app`, port 80 -> 8080. */
export const service = (name: string, app: string): string => `apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  selector:
    app: ${app}
  ports:
    - name: http
      port: 80
      targetPort: 8080
`;

/** An inline Rollout pod template for app `app` (indented for spec:). */
export const podTemplate = (app: string, containerExtra = ''): string => `  selector:
    matchLabels:
      app: ${app}
  template:
    metadata:
      labels:
        app: ${app}
    spec:
      containers:
        - name: ${app}
          image: registry.k8s.io/e2e-test-images/agnhost:2.53
          args: ["netexec", "--http-port=8080"]
${containerExtra}`;
