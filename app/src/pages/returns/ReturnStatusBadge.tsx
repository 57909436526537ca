/** A return's status as a coloured badge in the page's language (the list, a return's page, an order's returns). */
import { Badge } from '@mantine/core';
import { useText } from '../../i18n';
import { RETURN_STATUSES, type Return, STATUS_COLORS, wordOf } from './return-model';

export function ReturnStatusBadge({ status, size }: { status: string; size?: 'sm' | 'lg' }) {
  const { t } = useText();
  return (
    <Badge
      size={size}
      color={STATUS_COLORS[status as Return['status']] ?? 'gray.7'}
      data-testid="return-status"
      data-status={status}
    >
      {wordOf(t, 'rtStatus_', status, RETURN_STATUSES)}
    </Badge>
  );
}
