/** The words of the warehouse staff's screen. */
export const en = {
  warehouseStaff: 'Warehouse staff',
  operatorToken: 'Operator token (opr_…)',
  arrived: 'Arrived',
  staffComment: 'Comment',
};

export const ru: Record<keyof typeof en, string> = {
  warehouseStaff: 'Сотрудник склада',
  operatorToken: 'Токен склада (opr_…)',
  arrived: 'Прибыла',
  staffComment: 'Комментарий',
};
