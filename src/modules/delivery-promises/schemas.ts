/** The delivery promise's models: on calculator offers, widget quotes and orders; the on-time report. */
import Type, { type Static } from 'typebox';
import { DateText, INT32_MAX } from '../../platform/schemas.js';

const PromiseFields = {
  medianDays: Type.Integer({
    description: 'Business days from hand-over within which half of the measured parcels arrived',
  }),
  p90Days: Type.Integer({ description: 'Business days within which 9 in 10 arrived: what is promised' }),
  handOverDate: Type.String({ description: 'The day the parcel is expected to be handed to the company (YYYY-MM-DD)' }),
  medianDate: Type.String({ description: 'handOverDate plus medianDays business days' }),
  byDate: Type.String({
    description: '"Arrives by": handOverDate plus p90Days business days of the production calendar',
  }),
  basis: Type.String({
    description:
      "What the days were measured on: route (this company, type, tariff and the two localities), regions (the two regions), distance (a band of distance), company (its every parcel of the type), declared (too few parcels: the company's own days)",
  }),
  parcels: Type.Integer({ description: 'Parcels the basis was measured on (0 for declared)' }),
};

export const DeliveryPromiseModel = Type.Object(PromiseFields, {
  description:
    "Extension: when the parcel will arrive, learnt from this service's own deliveries of the route (or a coarser fall-back), beside the company's declared deliveryDays",
});

export const OrderPromiseModel = Type.Object(
  {
    ...PromiseFields,
    declaredDays: Type.Optional(
      Type.Object(
        { min: Type.Integer(), max: Type.Integer() },
        { description: "The company's declared working days when the order was priced (deliveryPlanDays)" },
      ),
    ),
    late: Type.Optional(Type.Boolean({ description: 'Found past byDate and not yet delivered (order.late)' })),
    lateSince: Type.Optional(Type.String({ description: 'The day it was found late' })),
  },
  { description: 'Extension: the promise made when the order was priced; late once byDate passed without arrival' },
);
export type OrderPromise = Static<typeof OrderPromiseModel>;

export const OnTimeQuery = Type.Object({
  dateFrom: DateText,
  dateTo: DateText,
  companyId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT32_MAX })),
});
export type OnTimeQuery = Static<typeof OnTimeQuery>;

const OnTimeFigures = {
  parcels: Type.Integer(),
  promised: Type.Integer({ description: 'Parcels that had a promise' }),
  onTime: Type.Integer({ description: 'Parcels that arrived by the promised date' }),
  onTimeShare: Type.Union([Type.Number(), Type.Null()], { description: 'onTime / promised, null with no promise' }),
  declaredOnTimeShare: Type.Union([Type.Number(), Type.Null()], {
    description: "Share that arrived within the company's declared days",
  }),
  medianPromisedDays: Type.Union([Type.Integer(), Type.Null()]),
  medianActualDays: Type.Integer(),
  meanActualDays: Type.Number(),
};

export const OnTimeReport = Type.Object(
  {
    dateFrom: Type.String(),
    dateTo: Type.String(),
    total: Type.Object(OnTimeFigures),
    companies: Type.Array(
      Type.Object({
        companyId: Type.Integer(),
        companyName: Type.String(),
        deliveryType: Type.Integer(),
        ...OnTimeFigures,
      }),
    ),
    routes: Type.Array(
      Type.Object({
        companyId: Type.Integer(),
        companyName: Type.String(),
        deliveryType: Type.Integer(),
        from: Type.String(),
        to: Type.String(),
        ...OnTimeFigures,
      }),
      { description: 'The 100 routes with the most parcels' },
    ),
  },
  { description: 'Extension: delivery on time per company and route over the period of arrival' },
);
export type OnTimeReport = Static<typeof OnTimeReport>;

export const HistoryBody = Type.Object({
  parcels: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000, default: 2000 })),
  days: Type.Optional(
    Type.Integer({ minimum: 7, maximum: 365, default: 180, description: 'Days back the history spans' }),
  ),
});
export type HistoryBody = Static<typeof HistoryBody>;

export const HistoryResult = Type.Object({
  parcels: Type.Integer(),
  routes: Type.Integer(),
  firstDay: Type.String(),
  lastDay: Type.String(),
});
export type HistoryResult = Static<typeof HistoryResult>;
