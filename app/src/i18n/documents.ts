/** The words of the documents page. */
export const en = {
  stickersToday: "Today's sticker sets",
  stickerSetZip: 'The whole set as one ZIP',
  stickerCompanyLabel: 'The delivery company’s own sticker, PDF',
  stickerSetZpl: 'ZPL for a thermal printer',
  stickerSetPng: 'PNG images for a thermal printer',
  stickerSetOrders: 'orders: {count}',
};

export const ru: Record<keyof typeof en, string> = {
  stickersToday: 'Наклейки за сегодня',
  stickerSetZip: 'Весь набор одним ZIP',
  stickerCompanyLabel: 'Наклейка службы доставки, PDF',
  stickerSetZpl: 'ZPL для термопринтера',
  stickerSetPng: 'Картинки PNG для термопринтера',
  stickerSetOrders: 'заказов: {count}',
};
