/**
 * The calculator's fast JSON path: an answer written as UTF-8 bytes without Fastify's
 * serializer. The unchanging fields of every pickup point are serialised once per process
 * (a big city's hundreds of points then cost a join), the per-call fields once per distinct
 * value. test/fast-paths-schema.test.ts proves the bytes equal what the published schema's
 * serializer writes.
 */
import type { DeliveryPoint } from '../../carriers/points.js';
import { JsonBody } from '../../platform/compression.js';
import { toRoubles } from '../../platform/money.js';
import { presentPoint, type CompanyOption, type PointDates, type PointPrice } from './present.js';

const COMMA = Buffer.from(',');
const OPEN_ARRAY = Buffer.from('[');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_POINTS = Buffer.from(']}');
const CLOSE_OBJECT = Buffer.from('}');
const OPEN_ANSWER = Buffer.from('{"1":');
const SECOND_TYPE = Buffer.from(',"2":');
const THIRD_TYPE = Buffer.from(',"3":');

/** Point fragments kept (one per point of the dataset at most). */
const POINT_FRAGMENTS = 200_000;

interface PointFragment {
  head: Buffer;
  end: Buffer;
}

export class JsonAnswers {
  private readonly pointFragments = new Map<number, PointFragment>();

  /** The answer of /v2/calculator: its three lists of options. */
  answer(found: Record<'1' | '2' | '3', CompanyOption[]>): JsonBody {
    const parts: Buffer[] = [OPEN_ANSWER];
    this.optionsParts(found['1'], parts);
    parts.push(SECOND_TYPE);
    this.optionsParts(found['2'], parts);
    parts.push(THIRD_TYPE);
    this.optionsParts(found['3'], parts);
    parts.push(CLOSE_OBJECT);
    // joined only for a client that needs the plain bytes or gzip: Brotli reads the parts
    return JsonBody.ofParts(parts);
  }

  /** JSON of options as byte parts: point fragments are UTF-8 once per process, the per-call parts once per distinct value. */
  private optionsParts(options: CompanyOption[], parts: Buffer[]): void {
    parts.push(OPEN_ARRAY);
    options.forEach((option, index) => {
      if (index > 0) parts.push(COMMA);
      this.optionParts(option, parts);
    });
    parts.push(CLOSE_ARRAY);
  }

  private optionParts(option: CompanyOption, parts: Buffer[]): void {
    const head = JSON.stringify(option.company);
    if (!option.points) {
      parts.push(Buffer.from(head));
      return;
    }
    if (option.idsOnly) {
      parts.push(
        Buffer.from(`${head.slice(0, -1)},"points":[${option.points.map((item) => item.point.id).join(',')}]}`),
      );
      return;
    }
    parts.push(Buffer.from(`${head.slice(0, -1)},"points":[`));
    const sharedByDates = new Map<PointDates, string>();
    // the points sharing a price share its bytes: written once per calculation
    const tails = new Map<PointPrice, Buffer>();
    option.points.forEach(({ point, price }, index) => {
      if (index > 0) parts.push(COMMA);
      const fragment = this.pointFragment(point, option);
      let tail = tails.get(price);
      if (!tail) {
        let shared = sharedByDates.get(price.dates);
        if (shared === undefined) {
          shared = `,"deliveryDays":${JSON.stringify(price.dates.deliveryDays)},"deliveryDate":${JSON.stringify(price.dates.deliveryDate)},"deliveryHoldDays":${option.holdDays}`;
          sharedByDates.set(price.dates, shared);
        }
        tail = Buffer.from(
          `${shared},"priceCommissionCod":${toRoubles(price.codKopecks)},"priceDelivery":${toRoubles(price.deliveryKopecks)},"totalPrice":${toRoubles(price.totalKopecks)},"isFar":${price.isFar}`,
        );
        tails.set(price, tail);
      }
      parts.push(fragment.head, tail, fragment.end);
    });
    parts.push(CLOSE_POINTS);
  }

  optionJson(option: CompanyOption): string {
    const parts: Buffer[] = [];
    this.optionParts(option, parts);
    return Buffer.concat(parts).toString('utf8');
  }

  /**
   * The unchanging fields of a point in the calculator's shape, as UTF-8 JSON: those before
   * the changing ones (`head`, from the opening brace) and those after them (`end`, the
   * zipCode and the closing brace), in the published CalculatorPoint's order.
   */
  private pointFragment(point: DeliveryPoint, option: CompanyOption): PointFragment {
    const key = point.id;
    let fragment = this.pointFragments.get(key);
    if (fragment === undefined) {
      const model = presentPoint(
        point,
        option.company.deliveryCompanyName,
        option.company.deliveryDriver,
        { deliveryDate: { from: '', to: '' }, deliveryDays: { min: 0, max: 0 } },
        0,
        0,
        0,
        0,
        false,
      );
      const {
        deliveryDays: _days,
        deliveryDate: _date,
        deliveryHoldDays: _hold,
        priceCommissionCod: _cod,
        priceDelivery: _delivery,
        totalPrice: _total,
        isFar: _far,
        zipCode,
        ...fixed
      } = model;
      fragment = {
        head: Buffer.from(JSON.stringify(fixed).slice(0, -1)),
        end: Buffer.from(`,"zipCode":${JSON.stringify(zipCode)}}`),
      };
      if (this.pointFragments.size >= POINT_FRAGMENTS) this.pointFragments.clear();
      this.pointFragments.set(key, fragment);
    }
    return fragment;
  }
}
