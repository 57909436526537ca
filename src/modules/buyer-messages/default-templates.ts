/**
 * The messages a buyer gets before a shop writes its own: per moment and language, an e-mail's
 * subject and text (Telegram says the text too) and an SMS (short: a Cyrillic SMS part holds 70
 * characters). Liquid, with the variables of context.ts. The e-mail's subjects of the moments the
 * service always e-mailed (at the point, out for delivery, delivered, late) are those it sent.
 */
import type { Language, Moment } from './moments.js';

export interface MomentTexts {
  subject: string;
  text: string;
  sms: string;
}

const RU: Record<Moment, MomentTexts> = {
  registered: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} оформлен',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} передан в службу доставки {{ order.company }}.{% if order.track != "" %}\nТрек-номер: {{ order.track }}{% endif %}{% if promise.date != "" %}\nОжидаемая дата доставки: до {{ promise.date | ru_date }}.{% endif %}{% if order.tracking_url != "" %}\nОтследить: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} оформлен{% if order.track != "" %}, трек {{ order.track }}{% endif %}',
  },
  handed_over: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} в пути',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} передан в {{ order.company }} и уже в пути.{% if promise.date != "" %}\nОжидаемая дата доставки: до {{ promise.date | ru_date }}.{% endif %}{% if order.tracking_url != "" %}\nОтследить: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} в пути',
  },
  at_point: {
    subject:
      '{{ shop.brand }}: заказ № {{ order.number }} ждёт вас {{ point.place }}{% if point.hold_until != "" %} до {{ point.hold_until | numeric_date }}{% endif %}',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} прибыл и ждёт вас {{ point.place }}{% if point.hold_until != "" %} до {{ point.hold_until | numeric_date }}{% endif %}.{% if point.name != "" %}\n{{ point.name }}, {{ point.address }}{% endif %}{% if point.hours != "" %}\nЧасы работы: {{ point.hours }}{% endif %}{% if order.track != "" %}\nТрек-номер: {{ order.track }}{% endif %}{% if order.tracking_url != "" %}\nОтследить: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} ждёт вас{% if point.hold_until != "" %} до {{ point.hold_until | numeric_date }}{% endif %}. {{ point.address }}',
  },
  storage_ending: {
    subject: '{{ shop.brand }}: заберите заказ № {{ order.number }} до {{ point.hold_until | numeric_date }}',
    text: '{{ hello }}\n\nЗаказ № {{ order.number }} ждёт вас {{ point.place }} последний день: {{ point.hold_until | ru_date }}. Потом он вернётся к нам.{% if point.name != "" %}\n{{ point.name }}, {{ point.address }}{% endif %}{% if point.hours != "" %}\nЧасы работы: {{ point.hours }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} хранится до {{ point.hold_until | numeric_date }}. {{ point.address }}',
  },
  out_for_delivery: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} передан курьеру',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} передан курьеру и сегодня будет у вас{% if courier.interval != "" %} с {{ courier.interval }}{% endif %}.{% if order.track != "" %}\nТрек-номер: {{ order.track }}{% endif %}{% if order.tracking_url != "" %}\nОтследить: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: курьер привезёт заказ {{ order.number }} сегодня{% if courier.interval != "" %} {{ courier.interval }}{% endif %}',
  },
  delivered: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} доставлен',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} доставлен. Спасибо за покупку!{% if order.track != "" %}\nТрек-номер: {{ order.track }}{% endif %}{% if order.returns_url != "" %}\nЕсли товар не подошёл, оформите возврат: {{ order.returns_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} доставлен. Спасибо!',
  },
  refused: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} не вручён',
    text: '{{ hello }}\n\nЗаказ № {{ order.number }} не вручён и возвращается к нам. Если это ошибка, ответьте на это письмо — мы поможем.\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} не вручён и возвращается',
  },
  late: {
    subject: '{{ shop.brand }}: заказ № {{ order.number }} задерживается',
    text: '{{ hello }}\n\nВаш заказ № {{ order.number }} мы обещали доставить{% if promise.date != "" %} к {{ promise.date | numeric_date }}{% endif %}, но он ещё в пути. Просим прощения: мы следим за ним и напишем, когда он прибудет.{% if order.track != "" %}\nТрек-номер: {{ order.track }}{% endif %}{% if order.tracking_url != "" %}\nОтследить: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: заказ {{ order.number }} задерживается, просим прощения',
  },
  return_received: {
    subject: '{{ shop.brand }}: возврат заказа № {{ order.number }} получен',
    text: '{{ hello }}\n\nМы получили возврат заказа № {{ order.number }}. Если вы оплатили заказ, деньги вернутся тем же способом.\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: возврат заказа {{ order.number }} получен',
  },
};

const EN: Record<Moment, MomentTexts> = {
  registered: {
    subject: '{{ shop.brand }}: order {{ order.number }} is on its way to {{ order.company }}',
    text: '{{ hello }}\n\nYour order {{ order.number }} was handed to {{ order.company }}.{% if order.track != "" %}\nTracking number: {{ order.track }}{% endif %}{% if promise.date != "" %}\nExpected by {{ promise.date | en_date }}.{% endif %}{% if order.tracking_url != "" %}\nTrack it: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} placed{% if order.track != "" %}, tracking {{ order.track }}{% endif %}',
  },
  handed_over: {
    subject: '{{ shop.brand }}: order {{ order.number }} is on its way',
    text: '{{ hello }}\n\nYour order {{ order.number }} is with {{ order.company }} and on its way.{% if promise.date != "" %}\nExpected by {{ promise.date | en_date }}.{% endif %}{% if order.tracking_url != "" %}\nTrack it: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} is on its way',
  },
  at_point: {
    subject:
      '{{ shop.brand }}: order {{ order.number }} is waiting for you{% if point.hold_until != "" %} until {{ point.hold_until | en_date }}{% endif %}',
    text: '{{ hello }}\n\nYour order {{ order.number }} has arrived and is waiting for you {{ point.place }}{% if point.hold_until != "" %} until {{ point.hold_until | en_date }}{% endif %}.{% if point.name != "" %}\n{{ point.name }}, {{ point.address }}{% endif %}{% if point.hours != "" %}\nOpening hours: {{ point.hours }}{% endif %}{% if order.tracking_url != "" %}\nTrack it: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} is waiting{% if point.hold_until != "" %} until {{ point.hold_until | en_date }}{% endif %}. {{ point.address }}',
  },
  storage_ending: {
    subject: '{{ shop.brand }}: collect order {{ order.number }} by {{ point.hold_until | en_date }}',
    text: '{{ hello }}\n\nOrder {{ order.number }} waits for you {{ point.place }} until {{ point.hold_until | en_date }}, its last day; then it comes back to us.{% if point.name != "" %}\n{{ point.name }}, {{ point.address }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} is kept until {{ point.hold_until | en_date }}. {{ point.address }}',
  },
  out_for_delivery: {
    subject: '{{ shop.brand }}: order {{ order.number }} is out for delivery',
    text: '{{ hello }}\n\nYour order {{ order.number }} is with the courier and arrives today{% if courier.interval != "" %}, {{ courier.interval }}{% endif %}.{% if order.tracking_url != "" %}\nTrack it: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} arrives today{% if courier.interval != "" %} {{ courier.interval }}{% endif %}',
  },
  delivered: {
    subject: '{{ shop.brand }}: order {{ order.number }} delivered',
    text: '{{ hello }}\n\nYour order {{ order.number }} was delivered. Thank you for shopping with us!{% if order.returns_url != "" %}\nIf something does not suit you, return it here: {{ order.returns_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} delivered. Thank you!',
  },
  refused: {
    subject: '{{ shop.brand }}: order {{ order.number }} was not handed over',
    text: '{{ hello }}\n\nOrder {{ order.number }} was not handed over and is coming back to us. If this is a mistake, reply to this e-mail and we will help.\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} was not handed over',
  },
  late: {
    subject: '{{ shop.brand }}: order {{ order.number }} is late',
    text: '{{ hello }}\n\nWe promised your order {{ order.number }}{% if promise.date != "" %} by {{ promise.date | en_date }}{% endif %}, and it is still on its way. We are sorry: we are watching it and will write when it arrives.{% if order.tracking_url != "" %}\nTrack it: {{ order.tracking_url }}{% endif %}\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: order {{ order.number }} is late, we are sorry',
  },
  return_received: {
    subject: '{{ shop.brand }}: the return of order {{ order.number }} arrived',
    text: '{{ hello }}\n\nWe received the return of order {{ order.number }}. If you paid for it, the money goes back the way you paid.\n\n{{ shop.brand }}',
    sms: '{{ shop.brand }}: the return of order {{ order.number }} arrived',
  },
};

export const DEFAULT_TEXTS: Record<Language, Record<Moment, MomentTexts>> = { ru: RU, en: EN };
