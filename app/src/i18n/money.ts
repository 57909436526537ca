/** The words of the money pages: bills and reports, cash on delivery. */
export const en = {
  sum: 'Sum',
  paid: 'Paid',
  payStatus0: 'Unpaid',
  payStatus1: 'Partly paid',
  payStatus2: 'Paid',
  pdf: 'PDF',
  agentReports: 'Agent reports',
  analyticalReports: 'Analytical reports',
  codHint:
    'Delivered orders with cash on delivery: owed — the buyer paid, the money is not yet received by the shop; paid — received.',
  codOwed: 'Owed',
  codPaid: 'Paid',
  codAmount: 'Cash on delivery',
  codPageSum: 'On this page: {count} orders for {sum}',
  codTotal: 'Orders: {total}',
};

export const ru: Record<keyof typeof en, string> = {
  sum: 'Сумма',
  paid: 'Оплачено',
  payStatus0: 'Не оплачен',
  payStatus1: 'Оплачен частично',
  payStatus2: 'Оплачен',
  pdf: 'PDF',
  agentReports: 'Агентские отчёты',
  analyticalReports: 'Аналитические отчёты',
  codHint:
    'Доставленные заказы с наложенным платежом: к получению — покупатель заплатил, магазин денег ещё не получил; получено — деньги у магазина.',
  codOwed: 'К получению',
  codPaid: 'Получено',
  codAmount: 'Наложенный платёж',
  codPageSum: 'На странице заказов: {count} на {sum}',
  codTotal: 'Заказов: {total}',
};
