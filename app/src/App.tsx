/** The layout: navigation, language, the signed-in account, the network banner; sign-in when there is no session. */
import {
  Alert,
  AppShell,
  Badge,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, NavLink as RouterLink, Route, Routes, useLocation } from 'react-router';
import { api, onNetworkChange, totalOf } from './api';
import { ActingShopSwitch } from './components/ActingShopSwitch';
import { useText, type Locale } from './i18n';
import { SIGNED_OUT_PAGES } from './pages/auth/LinkPages';
import { SignIn } from './pages/auth/SignIn';
import { Landing } from './pages/checklist/Landing';
import { WarehouseStaffPage } from './pages/warehouse/WarehouseStaff';
import { routesFor, sectionsFor, WAREHOUSE_STAFF_PATH } from './sections';
import { type SessionView, useSession } from './session';

function NetworkBanner() {
  const { t } = useText();
  const [down, setDown] = useState(false);
  useEffect(() => onNetworkChange(setDown), []);
  if (!down) return null;
  return (
    <Alert color="orange" role="status" data-testid="network-down" mb="sm">
      {t('networkDown')}
    </Alert>
  );
}

function LanguageSwitch() {
  const { locale, setLocale } = useText();
  return (
    <SegmentedControl
      size="xs"
      aria-label="Language / Язык"
      value={locale}
      onChange={(value) => setLocale(value as Locale)}
      data={[
        { value: 'ru', label: 'RU' },
        { value: 'en', label: 'EN' },
      ]}
    />
  );
}

function useUnreadCount(): number {
  const [count, setCount] = useState(0);
  const location = useLocation();
  useEffect(() => {
    let live = true;
    api.GET('/v2/notifications', { params: { query: { unread: 1, perPage: 1 } } }).then(
      (result) => live && result.response.ok && setCount(totalOf(result.response)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [location.pathname]);
  return count;
}

export function App() {
  const { t } = useText();
  const { session } = useSession();
  const location = useLocation();

  // the warehouse staff's screen has its own token, not a sign-in
  if (location.pathname.startsWith(WAREHOUSE_STAFF_PATH)) return <WarehouseStaffPage />;
  // the pages of the one-time links (and of asking for one) need no session
  const signedOutPage = SIGNED_OUT_PAGES[location.pathname.replace(/\/$/, '')];
  if (signedOutPage) return signedOutPage();
  if (session === undefined) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  // no session: sign-in in place of the page; the URL (and the page's draft) stay for after it.
  // Nothing that needs a session is asked before: the layout (and its unread count) waits for one.
  if (session === null) return <SignIn />;
  return <SignedInLayout session={session} />;
}

function SignedInLayout({ session }: { session: SessionView }) {
  const { t } = useText();
  const { signOut } = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const unread = useUnreadCount();

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('navigationMenu')}
              aria-expanded={opened}
            />
            <Title order={1} size="h4">
              {t('appName')}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="xs">
            <Text size="sm" visibleFrom="sm" data-testid="account-name">
              {session.accountName}
            </Text>
            <ActingShopSwitch />
            <LanguageSwitch />
            <Button variant="default" size="xs" onClick={() => void signOut()} data-testid="sign-out">
              {t('signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('appName')}>
        {/* the sections are taller than a 1100×900 window or a phone's: they scroll, the time zone stays below */}
        <AppShell.Section grow component={ScrollArea} type="auto">
          <Stack gap={2}>
            {sectionsFor(session).map((section) => (
              <NavLink
                key={section.path}
                component={RouterLink}
                to={section.path}
                end
                label={t(section.label)}
                active={location.pathname === section.path}
                variant="filled"
                onClick={close}
                rightSection={
                  section.path === '/notifications' && unread > 0 ? (
                    <Badge size="sm" color="red" data-testid="unread-count">
                      {unread}
                    </Badge>
                  ) : undefined
                }
              />
            ))}
          </Stack>
        </AppShell.Section>
        <AppShell.Section pt="xs">
          <Text size="xs" c="gray.7">
            {t('timeZone')} {session.timeZone}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <NetworkBanner />
        <Suspense fallback={<Loader aria-label={t('loading')} />}>
          <Routes>
            <Route path="/" element={<Landing session={session} />} />
            {routesFor(session)}
            <Route path="*" element={<Navigate to="/orders" replace />} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
