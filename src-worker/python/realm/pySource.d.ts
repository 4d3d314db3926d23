/** Python files of the realm are bundled as text (esbuild's text loader). */
declare module '*.py' {
  const source: string;
  export default source;
}
