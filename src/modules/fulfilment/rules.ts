/** Pure rules of fulfilment stock: what an order needs, how a supply's count compares with its act. */

/** An order line as far as stock is concerned. */
export interface DemandLine {
  productId: number | null;
  vendorCode: string | null;
  name: string | null;
  count: number;
}

export interface KitComponent {
  productId: number;
  count: number;
}

export interface Demand {
  /** Units per product, kits expanded, lines of one product added up (in first-seen order). */
  needs: Map<number, number>;
  /** Lines naming neither a product nor a kit of the shop: they can never be reserved. */
  unknown: DemandLine[];
}

/**
 * What an order takes from stock. A line names a catalogue product by id; a line without
 * one is matched by vendor code, first against the shop's kits (expanded into their goods,
 * times the line's count), then against the catalogue.
 */
export function demandOf(
  lines: DemandLine[],
  kits: Map<string, KitComponent[]>,
  productsByVendorCode: Map<string, number>,
): Demand {
  const needs = new Map<number, number>();
  const unknown: DemandLine[] = [];
  const add = (productId: number, count: number) => needs.set(productId, (needs.get(productId) ?? 0) + count);
  for (const line of lines) {
    if (line.productId !== null) {
      add(line.productId, line.count);
      continue;
    }
    const code = line.vendorCode?.trim() ?? '';
    const kit = code ? kits.get(code) : undefined;
    const productId = code ? productsByVendorCode.get(code) : undefined;
    if (kit) for (const part of kit) add(part.productId, part.count * line.count);
    else if (productId !== undefined) add(productId, line.count);
    else unknown.push(line);
  }
  return { needs, unknown };
}

/** One line of a supply as the warehouse counted it. */
export interface CountedLine {
  declared: number;
  /** Good units counted: only these enter stock. */
  accepted: number;
  damaged: number;
}

export interface Discrepancy {
  short: number;
  surplus: number;
  damaged: number;
}

/** Short: declared but not found; surplus: found beyond the act; damaged: found unfit (not taken into stock). */
export function discrepancyOf(line: CountedLine): Discrepancy {
  const found = line.accepted + line.damaged;
  return {
    short: Math.max(0, line.declared - found),
    surplus: Math.max(0, found - line.declared),
    damaged: line.damaged,
  };
}
