import Type from 'typebox';

export const OrderStatusesQuery = Type.Object({
  lang: Type.Optional(
    Type.Enum(['ru', 'en'], { default: 'ru', description: 'Language of the names; Russian by default' }),
  ),
});

export const OrderStatuses = Type.Record(Type.String({ pattern: '^\\d+$' }), Type.String(), {
  description: 'Status names keyed by status code',
  examples: [{ '10': 'Отменён отправителем', '11': 'Черновик' }],
});
