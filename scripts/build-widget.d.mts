/** Types of build-widget.mjs for the TypeScript that imports it (tests, benches). */
export interface WidgetFile {
  file: string;
  integrity: string;
  bytes: number;
  gzipBytes: number;
}
export function buildWidget(outDir?: string): Promise<{ widget: WidgetFile; map: WidgetFile; compat: WidgetFile }>;
