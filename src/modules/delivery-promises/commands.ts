/** `npm run cli -- promises backtest`: the delivery promise judged on a generated history, beside the companies' declared days. */
import { parseArgs } from 'node:util';
import { addDays } from '../../platform/clock.js';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { ReferenceData } from '../companies/reference.js';
import { backtest, generateHistory } from './history.js';
import type { DeliveryPromiseService } from './service.js';
import { DeliveryHistoryMaker } from './test-history.js';

/** The cities a back-test sends from: the five biggest shipping cities of the country. */
const SENDER_CITIES = ['Москва', 'Санкт-Петербург', 'Казань', 'Екатеринбург', 'Новосибирск'];

export const promisesCommand: AreaCommand<{ deliveryPromises: DeliveryPromiseService; reference: ReferenceData }> = {
  usage: [
    'promises backtest [--parcels N] [--days D] [--seed S]   learn on the earlier 80 % of a generated history, judge the later 20 %',
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { parcels: { type: 'string' }, days: { type: 'string' }, seed: { type: 'string' } },
    });
    if (positionals[0] !== 'backtest')
      throw new CommandUsageError('usage: promises backtest [--parcels N] [--days D] [--seed S]');
    const parcels = Number(stringOption(values, 'parcels') ?? 100_000);
    const days = Number(stringOption(values, 'days') ?? 365);
    const seed = Number(stringOption(values, 'seed') ?? 1);
    if (![parcels, days, seed].every((value) => Number.isInteger(value) && value > 0))
      throw new CommandUsageError('--parcels, --days and --seed are positive integers');
    const services = await open();
    await services.reference.load();
    const senders = SENDER_CITIES.flatMap(
      (name) => services.reference.localities.find({ countryCode: 'RU', name }) ?? [],
    );
    const maker = new DeliveryHistoryMaker(services.deliveryPromises, services.reference);
    const routes = await maker.routesFrom(senders);
    const calendar = services.deliveryPromises.calendar;
    const firstDay = '2025-06-02';
    const history = generateHistory(routes, { parcels, firstDay, lastDay: addDays(firstDay, days), seed }, calendar);
    const figures = backtest(history, calendar);
    const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
    return [
      `Routes ${routes.length}; parcels ${history.length} handed over in ${days} days; learnt on ${figures.learnedOn}, judged on ${figures.judgedOn}.`,
      `promise (90th percentile of the route or its fall-back): on time ${percent(figures.promise.onTimeShare)}, mean days promised minus actual ${figures.promise.meanDaysEarly.toFixed(2)}, mean |promised - actual| ${figures.promise.meanAbsoluteDays.toFixed(2)}`,
      `declared (the company's days, the end of its range): on time ${percent(figures.declared.onTimeShare)}, mean days promised minus actual ${figures.declared.meanDaysEarly.toFixed(2)}, mean |promised - actual| ${figures.declared.meanAbsoluteDays.toFixed(2)}`,
      `bases of the judged promises: ${Object.entries(figures.bases)
        .map(([basis, count]) => `${basis} ${count}`)
        .join(', ')}`,
      '',
    ].join('\n');
  },
};
