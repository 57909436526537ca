/** A refusal of the service in words, with its field errors and the log id to quote to support. */
import { Alert, Code, List, Text } from '@mantine/core';
import { DeliveryApiError, NetworkError } from '../api';
import { useText } from '../i18n';

export function ApiError({ error, title }: { error: unknown; title?: string }) {
  const { t } = useText();
  // the network gone is said once, by the banner of the layout
  if (!error || error instanceof NetworkError) return null;
  if (!(error instanceof DeliveryApiError)) {
    return (
      <Alert color="red" title={title ?? t('refused')} role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  const message = error.message.replace(/^\d+ [a-z_]+: /, '');
  const fields = (error.errors ?? []).filter((item) => 'field' in item && item.field);
  return (
    <Alert color="red" title={title ?? t('refused')} role="alert" data-testid="api-error">
      <Text size="sm">{message}</Text>
      {fields.length > 0 && (
        <List size="sm" mt={4}>
          {fields.slice(0, 10).map((item, index) => (
            <List.Item key={index}>
              <Code>{String((item as { field?: string }).field)}</Code> {item.message}
            </List.Item>
          ))}
        </List>
      )}
      {error.logId && (
        <Text size="xs" mt={6} c="gray.7">
          {t('logId')}: <Code data-testid="log-id">{error.logId}</Code>
        </Text>
      )}
    </Alert>
  );
}
