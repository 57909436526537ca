/**
 * The real checkout widget inside the dashboard, under the shop's preview key (it prices and
 * shows points from this origin only; nothing chosen becomes an order). The widget's script is
 * the versioned file with its SRI hash, loaded once from this origin (the page's CSP allows
 * scripts from 'self'); its styles are constructed stylesheets, which the CSP does not govern.
 */
import { Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';

interface MountedWidget {
  on(event: string, handler: (detail: unknown) => void): MountedWidget;
  destroy(): void;
}
interface WidgetGlobal {
  mount(target: HTMLElement, options: Record<string, unknown>): MountedWidget;
}

let loading: Promise<WidgetGlobal> | null = null;

/** Loads the widget's script once (the versioned file, checked by its SRI hash). */
function loadWidget(file: string, integrity: string): Promise<WidgetGlobal> {
  const existing = (window as unknown as { DeliveryWidget?: WidgetGlobal }).DeliveryWidget;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<WidgetGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `/widget/v1/${file}`;
    script.integrity = integrity;
    script.crossOrigin = 'anonymous';
    script.onload = () => resolve((window as unknown as { DeliveryWidget: WidgetGlobal }).DeliveryWidget);
    script.onerror = () => {
      loading = null;
      reject(new Error(`/widget/v1/${file} did not load`));
    };
    document.head.append(script);
  });
  return loading;
}

export function WidgetPreview(props: { shopId: number; file: string; integrity: string; locale: 'ru' | 'en' }) {
  const { t } = useText();
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<unknown>(null);
  const [ready, setReady] = useState(false);
  const [choice, setChoice] = useState<string | null>(null);
  useEffect(() => {
    let widget: MountedWidget | null = null;
    let live = true;
    (async () => {
      try {
        const key = ok(await api.POST('/v2/shops/{id}/widget-preview-key', { params: { path: { id: props.shopId } } }));
        const global = await loadWidget(props.file, props.integrity);
        if (!live || !box.current) return;
        widget = global.mount(box.current, {
          publicKey: key.previewKey,
          apiUrl: window.location.origin,
          locale: props.locale,
          products: [{ name: props.locale === 'en' ? 'Mug' : 'Кружка', price: 1000, count: 1, weight: 0.5 }],
          defaultLocation: { name: 'Москва' },
          map: 'none',
        });
        widget.on('ready', () => live && setReady(true));
        widget.on('select', (detail) => {
          const quote = (detail as { quote: { companyName: string; totalPrice: number } }).quote;
          if (live) setChoice(`${quote.companyName} — ${quote.totalPrice} ₽`);
        });
      } catch (caught) {
        if (live) setError(caught);
      }
    })();
    return () => {
      live = false;
      widget?.destroy();
    };
  }, [props.shopId, props.file, props.integrity, props.locale]);
  return (
    <div>
      {!ready && !error && <Loader size="sm" aria-label={t('loading')} />}
      <div ref={box} data-testid="widget-preview" />
      {choice && (
        <Text size="sm" mt="xs" data-testid="widget-preview-choice">
          {t('clPreviewChoice')}: {choice}
        </Text>
      )}
      <ApiError error={error} />
    </div>
  );
}
