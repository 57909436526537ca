/**
 * The tables of every area in `src/modules.ts`, joined into the database's table type
 * (`platform/db/tables.ts` declares `AreaTables` empty and knows no area; this fills it). An
 * area's tables come with its module definition, so a new area edits no list of tables.
 */
import type { MODULES } from './modules.js';

type TablesOf<M> = M extends { readonly tables?: infer T } ? (T extends object ? T : never) : never;
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (whole: infer I) => void ? I : never;

/** Every area's tables, one intersection. */
export type EveryAreaTables = Intersection<TablesOf<(typeof MODULES)[number]>>;

declare module './platform/db/tables.js' {
  interface AreaTables extends EveryAreaTables {}
}
