/** Templates are bundled as strings: esbuild's text loader in the build, scripts/jest-text-transform.cjs in tests. */
declare module '*.hbs' {
  const text: string;
  export default text;
}
