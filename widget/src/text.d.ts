/** Stylesheets bundled as text by esbuild (loader "text"): they go into the widget's shadow root. */
declare module '*.css' {
  const text: string;
  export default text;
}
