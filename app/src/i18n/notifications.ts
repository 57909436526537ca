/** The words of the notifications page. */
export const en = {
  markRead: 'Mark read',
  unread: 'unread',
  noNotifications: 'No notifications.',
};

export const ru: Record<keyof typeof en, string> = {
  markRead: 'Прочитано',
  unread: 'непрочитанных',
  noNotifications: 'Уведомлений нет.',
};
