/**
 * The map's points: those of a viewport that take the parcel, of the companies the shop shows,
 * as clusters when zoomed out or too many, from a grid of every point rebuilt when the
 * reference data change. An answer is named by a tag (the data, the shop's settings, the
 * query) and kept as JSON bytes, so the first view of a city, the same for every buyer there,
 * is made once. Apart from service.ts because it is the widget's one read that neither quotes
 * nor stores: it needs only the reference data and the shop's widget settings, and holds the
 * grid and the answers remembered.
 */
import { createHash } from 'node:crypto';
import type { Scope } from '../../platform/auth.js';
import { BoundedMap } from '../../platform/cache.js';
import { JsonBody } from '../../platform/compression.js';
import { fieldError } from '../../platform/errors.js';
import { distanceKm } from '../../carriers/geo.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import { pointTakes } from '../calculator/service.js';
import type { WidgetSettingsFull } from '../calculator/schemas.js';
import type { WidgetSettingsService } from '../calculator/widget-settings.js';
import type { ReferenceData } from '../companies/reference.js';
import { clusterPoints, PointGrid, type Viewport } from './points-index.js';
import type { PointsAnswer, PointsQuery, WidgetPoint } from './schemas.js';

/** Below this zoom points come as clusters; so do they when more than MAX_POINTS are in view. */
export const CLUSTER_BELOW_ZOOM = 12;
export const MAX_POINTS = 500;

export class PointAnswers {
  private grid: { generation: number; grid: PointGrid } | null = null;
  /** Answers of viewports by tag: the first view of a city is the same for every buyer there. */
  private readonly answers = new BoundedMap<string, JsonBody>(2_000, 32 * 1024 * 1024);

  constructor(
    private readonly reference: ReferenceData,
    private readonly widgetSettings: WidgetSettingsService,
  ) {}

  /**
   * Points in a viewport that take the parcel, of the companies the shop shows; clusters when
   * zoomed out. `tag` names the answer (data, the shop's settings, the query): equal tags, equal
   * answers, so it is the ETag and the key of the answers remembered.
   */
  async points(
    scope: Scope,
    shopId: number,
    query: PointsQuery,
    url: string,
  ): Promise<{ tag: string; answer: () => JsonBody }> {
    const [west, south, east, north] = query.bbox.split(',').map(Number);
    if (
      west >= east ||
      south >= north ||
      Math.abs(west) > 180 ||
      Math.abs(east) > 180 ||
      Math.abs(south) > 90 ||
      Math.abs(north) > 90
    ) {
      throw fieldError('bbox', 'must be west,south,east,north with west < east and south < north');
    }
    const settings = await this.widgetSettings.forShop(scope, shopId);
    const serving = (await this.reference.registry.companiesOf(scope.accountId)).map((entry) => entry.company.id);
    const generation = this.reference.registry.generation;
    const tag = `"${createHash('sha1')
      .update(
        JSON.stringify([
          generation,
          shopId,
          serving,
          settings.hiddenCompanyIds,
          settings.defaultWeight,
          settings.defaultDimensions,
          url.replace(/([?&])key=[^&]*/, '$1'),
        ]),
      )
      .digest('base64url')}"`;
    return {
      tag,
      answer: () => {
        const known = this.answers.get(tag);
        if (known) return known;
        // kept as JSON bytes (and their compressed form once a phone asks for it): a city's 300 points are 80 kB, which serialising or compressing again would cost each time
        const answer = JsonBody.of(
          Buffer.from(JSON.stringify(this.pointsIn({ west, south, east, north }, query, settings, new Set(serving)))),
        );
        this.answers.set(tag, answer, answer.length);
        return answer;
      },
    };
  }

  private pointsIn(
    view: Viewport,
    query: PointsQuery,
    settings: WidgetSettingsFull,
    serving: Set<number>,
  ): PointsAnswer {
    const hidden = new Set(settings.hiddenCompanyIds);
    const wanted = query.companyIds ? new Set(query.companyIds) : null;
    const shown = (companyId: number) =>
      serving.has(companyId) && !hidden.has(companyId) && (!wanted || wanted.has(companyId));
    const types = query.types ? new Set<number>(query.types) : null;
    const parcel = {
      weightKg: query.weight ?? settings.defaultWeight ?? null,
      sidesCm: [query.length, query.width, query.height].every((side) => side !== undefined)
        ? [query.length as number, query.width as number, query.height as number]
        : settings.defaultDimensions
          ? [settings.defaultDimensions.length, settings.defaultDimensions.width, settings.defaultDimensions.height]
          : null,
      cod: query.cod ?? false,
      card: query.card ?? false,
      fitting: query.fitting ?? false,
    };
    const found = this.pointGrid().within(
      view,
      (point) => shown(point.companyId) && (!types || types.has(point.type)) && pointTakesParcel(point, parcel),
    );
    if (query.zoom < CLUSTER_BELOW_ZOOM || found.length > MAX_POINTS)
      return { clusters: clusterPoints(found, view), points: [] };
    return { clusters: [], points: nearestFirst(found, view).map(presentPoint) };
  }

  private pointGrid(): PointGrid {
    const generation = this.reference.registry.generation;
    if (!this.grid || this.grid.generation !== generation) {
      const points: DeliveryPoint[] = [];
      for (const locality of this.reference.localities.all)
        points.push(...this.reference.registry.pointsOfLocality(locality.id));
      this.grid = { generation, grid: new PointGrid(points) };
    }
    return this.grid.grid;
  }
}

/**
 * Points by distance from the viewport's centre, the nearest first: a list shows them in this
 * order. The widget's first view of a tab is centred on the locality, so a city's own points
 * come before those of the villages its view also covers; a moved map's list starts where the
 * buyer looks.
 */
function nearestFirst(points: DeliveryPoint[], view: Viewport): DeliveryPoint[] {
  const latitude = (view.south + view.north) / 2;
  const longitude = (view.west + view.east) / 2;
  return points
    .map((point) => ({ point, km: distanceKm(latitude, longitude, point.latitude, point.longitude) }))
    .sort((a, b) => a.km - b.km)
    .map((entry) => entry.point);
}

/** What the points filter knows of the parcel: the page's cart, or the shop's default sizes. */
export interface ParcelNeeds {
  weightKg: number | null;
  sidesCm: number[] | null;
  cod: boolean;
  card: boolean;
  fitting: boolean;
}

/** The calculator's own rule (limits, payment on delivery, fitting), asked with what a map query knows. */
export function pointTakesParcel(point: DeliveryPoint, parcel: ParcelNeeds): boolean {
  if (parcel.card && !point.cardPaymentAvailable) return false;
  const sides = parcel.sidesCm ? ([...parcel.sidesCm].sort((a, b) => b - a) as [number, number, number]) : null;
  // an unknown weight is not refused by a minimum weight: the cart is not known yet
  const weightGrams =
    parcel.weightKg === null ? Math.round((point.limits.minWeight ?? 0) * 1000) : Math.round(parcel.weightKg * 1000);
  return pointTakes(point, {
    cargo: {
      weightGrams,
      volumeCm3: sides ? sides[0] * sides[1] * sides[2] : 0,
      places: [{ sidesCm: sides, weightGrams }],
    },
    // one kopeck on delivery: "the buyer pays there", whatever the sum
    money: {
      declaredKopecks: 0,
      codKopecks: parcel.cod || parcel.card ? 1 : 0,
      clientPriceKopecks: 0,
      prePayKopecks: 0,
    },
    required: new Set(parcel.fitting ? [FITTING_SERVICE] : []),
  });
}

/** Service 7 of GET /v2/lists/services: fitting, which a point must offer. */
const FITTING_SERVICE = 7;

/** A point as the page shows it. */
export function presentPoint(point: DeliveryPoint): WidgetPoint {
  return {
    id: point.id,
    companyId: point.companyId,
    type: point.type,
    name: point.name,
    address: point.address,
    zipCode: point.zipCode,
    latitude: point.latitude,
    longitude: point.longitude,
    schedule: point.schedule,
    cashPaymentAvailable: point.cashPaymentAvailable,
    cardPaymentAvailable: point.cardPaymentAvailable,
    fittingAvailable: point.fittingAvailable,
  };
}
