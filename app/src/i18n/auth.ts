/** The words of the sign-in page. */
export const en = {
  signIn: 'Sign in',
  password: 'Password',
  sessionEnded: 'Your session has ended. Sign in again: what you were typing is kept.',
};

export const ru: Record<keyof typeof en, string> = {
  signIn: 'Войти',
  password: 'Пароль',
  sessionEnded: 'Сеанс закончился. Войдите снова: введённое сохранено.',
};
