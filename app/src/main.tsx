import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import './app.css';
import { MantineProvider } from '@mantine/core';
import { setNonce } from 'get-nonce';
import { DatesProvider } from '@mantine/dates';
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import 'dayjs/locale/ru';
import { App } from './App';
import { initialLocale, LocaleContext, rememberLocale, translator, type Locale } from './i18n';
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
  document.documentElement.lang = locale;
  return (
    <LocaleContext.Provider value={value}>
      <DatesProvider settings={{ locale }}>
        <SessionProvider>
          <BrowserRouter basename="/app">
            <App />
          </BrowserRouter>
        </SessionProvider>
      </DatesProvider>
    </LocaleContext.Provider>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <MantineProvider
      getStyleNonce={() => nonce}
      theme={{ primaryColor: 'indigo', primaryShade: 8, defaultRadius: 'sm' }}
    >
      <Root />
    </MantineProvider>
  </StrictMode>,
);
