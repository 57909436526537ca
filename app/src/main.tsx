import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import './app.css';
import { createTheme, Input, MantineProvider } from '@mantine/core';
import { setNonce } from 'get-nonce';
import { DateInput, DatePickerInput, DatesProvider } from '@mantine/dates';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import 'dayjs/locale/ru';
import { App } from './App';
import { dateInputFormat, parseTypedDate } from './format';
import { initialLocale, LocaleContext, rememberLocale, translator, type Locale, type Translate } from './i18n';
import { SessionProvider } from './session';

/** The nonce of this answer's CSP (a meta tag the server fills): Mantine puts it on the <style> it writes. */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// and so does the scroll lock of Mantine's dialogs (react-remove-scroll writes its <style> with
// the nonce get-nonce holds): without it the CSP refused that style and a dialog left the page scrolling
setNonce(nonce);

function Root() {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const value = useMemo(
    () => ({
      locale,
      t: translator(locale),
      setLocale(next: Locale) {
        rememberLocale(next);
        document.documentElement.lang = next;
        setLocaleState(next);
      },
    }),
    [locale],
  );
  const theme = useMemo(() => themeFor(value.t, locale), [value.t, locale]);
  document.documentElement.lang = locale;
  return (
    <MantineProvider getStyleNonce={() => nonce} theme={theme}>
      <LocaleContext.Provider value={value}>
        <DatesProvider settings={{ locale }}>
          <SessionProvider>
            <BrowserRouter basename="/app">
              <App />
            </BrowserRouter>
          </SessionProvider>
        </DatesProvider>
      </LocaleContext.Provider>
    </MantineProvider>
  );
}

/**
 * The house look, and every date picker's calendar made readable (axe-core, seen when a test
 * caught the order form's calendar open): its month arrows are named in the reader's language
 * (else a screen reader announces two unnamed buttons), and its weekday names and weekend days
 * get darker colours than Mantine's (grey 3.3:1 and red 3.5:1 on white; app.css). The other
 * months' days are not shown: Mantine dims them below 4.5:1, and a test that opened December
 * found 30 November there. A typed date is read day first or as yyyy-mm-dd, never month first
 * (the pickers fall back to `new Date(text)`, which reads 07.01.2027 as the 1st of July), and shown
 * as the language writes it (format.ts); pages use components/DateField, which also says when
 * typed text gives no day.
 */
function themeFor(t: Translate, locale: Locale) {
  const calendar = {
    previousLabel: t('previousMonth'),
    nextLabel: t('nextMonth'),
    classNames: { weekday: 'calendar-weekday', day: 'calendar-day' },
    hideOutsideDates: true,
  };
  const { valueFormat } = dateInputFormat(locale);
  return createTheme({
    primaryColor: 'indigo',
    primaryShade: 8,
    defaultRadius: 'sm',
    components: {
      DateInput: DateInput.extend({ defaultProps: { ...calendar, valueFormat, dateParser: parseTypedDate } }),
      DatePickerInput: DatePickerInput.extend({ defaultProps: { ...calendar, valueFormat } }),
      // a field's description (the hint under its label) and its error in darker colours than Mantine's
      // (its dimmed grey is 3.3:1 on white, its error red 3.2:1)
      InputWrapper: Input.Wrapper.extend({ classNames: { description: 'input-description', error: 'input-error' } }),
    },
  });
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
