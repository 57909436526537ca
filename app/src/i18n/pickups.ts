/** The words of the pickups page: booking, the list and its archive, cancel, the handover act. */
export const en = {
  bookPickup: 'Book a pickup',
  pickupType: 'Pickup',
  pickupType3: 'Consolidated pickup',
  pickupType4: 'Courier of the company',
  pickupDate: 'Date',
  freeFrom: 'free from {count} orders',
  archive: 'Archive',
  current: 'Current',
  handoverAct: 'Handover act',
  cancelPickup: 'Cancel',
  book: 'Book',
  noPickups: 'No pickups.',
};

export const ru: Record<keyof typeof en, string> = {
  bookPickup: 'Заказать забор',
  pickupType: 'Забор',
  pickupType3: 'Консолидированный забор',
  pickupType4: 'Курьер службы',
  pickupDate: 'Дата',
  freeFrom: 'бесплатно от {count} заказов',
  archive: 'Архив',
  current: 'Текущие',
  handoverAct: 'Акт передачи',
  cancelPickup: 'Отменить',
  book: 'Заказать',
  noPickups: 'Заборов нет.',
};
