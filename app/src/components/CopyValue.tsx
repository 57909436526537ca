/** A value to paste elsewhere, with a copy button: one line, or a block of code. */
import { ActionIcon, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useText } from '../i18n';

export function CopyValue(props: { label: string; value: string; block?: boolean; testId?: string; hint?: string }) {
  const { t } = useText();
  const copy = (
    <CopyButton value={props.value}>
      {({ copied, copy }) =>
        props.block ? (
          <Button size="xs" variant="default" onClick={copy} data-testid={props.testId && `${props.testId}-copy`}>
            {copied ? t('clCopied') : t('clCopy')}
          </Button>
        ) : (
          <Tooltip label={copied ? t('clCopied') : t('clCopy')} withArrow>
            <ActionIcon
              variant="default"
              onClick={copy}
              aria-label={`${t('clCopy')}: ${props.label}`}
              data-testid={props.testId && `${props.testId}-copy`}
            >
              {copied ? '✓' : '⧉'}
            </ActionIcon>
          </Tooltip>
        )
      }
    </CopyButton>
  );
  if (props.block)
    return (
      <Stack gap={4}>
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            {props.label}
          </Text>
          {copy}
        </Group>
        {/* a long line scrolls inside the block: focusable, so a keyboard can scroll it too */}
        <Code block tabIndex={0} aria-label={props.label} data-testid={props.testId}>
          {props.value}
        </Code>
      </Stack>
    );
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {props.label}
      </Text>
      {props.hint && (
        <Text size="xs" c="gray.7">
          {props.hint}
        </Text>
      )}
      <Group gap="xs" wrap="nowrap" align="center">
        <Code data-testid={props.testId} style={{ wordBreak: 'break-all' }}>
          {props.value}
        </Code>
        {copy}
      </Group>
    </Stack>
  );
}
