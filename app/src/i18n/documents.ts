/** The words of the documents page. */
export const en = {
  stickersToday: "Today's sticker sets",
};

export const ru: Record<keyof typeof en, string> = {
  stickersToday: 'Наклейки за сегодня',
};
