import Type, { type Static } from 'typebox';

export const ClosedPeriod = Type.Object(
  {
    start: Type.String({ format: 'date', description: 'First day of the closed period' }),
    lastDay: Type.String({ format: 'date', description: "Its last day: today, in the account's time zone" }),
  },
  {
    description:
      'The billing period the sandbox closed: its bill and agent reports are in GET /v2/reports/bill and /v2/reports/agent',
  },
);
export type ClosedPeriod = Static<typeof ClosedPeriod>;

export const AdvancedOrder = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Integer({ description: "The order's status now (GET /v2/lists/order-statuses)" }),
  },
  { description: 'The order after its next simulated status' },
);
export type AdvancedOrder = Static<typeof AdvancedOrder>;

export const PartialBuyoutBody = Type.Object({
  lines: Type.Array(
    Type.Object({
      index: Type.Integer({
        minimum: 0,
        maximum: 999,
        description: "The line's position in the order's products (0-based)",
      }),
      count: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Units of that line the recipient takes' }),
    }),
    { minItems: 1, maxItems: 1000, description: 'Lines the recipient takes; a line left out is refused whole' },
  ),
  paymentMethod: Type.Optional(
    Type.Enum(['cash', 'card'], { description: 'How the recipient pays (unsaid: cash where the point takes cash)' }),
  ),
});
export type PartialBuyoutBody = Static<typeof PartialBuyoutBody>;
