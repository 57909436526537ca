/** The versions of a shop's shipping rules, newest first: who wrote each and when, and a revert to it. */
import { Button, Card, Table, Text, Title } from '@mantine/core';
import { formatInstant } from '../../../format';
import { useText } from '../../../i18n';
import { useSignedIn } from '../../../session';
import type { RuleVersion } from './rules-model';

export function RuleVersions({
  versions,
  employees,
  onRevert,
}: {
  versions: RuleVersion[];
  employees: Map<number, string>;
  onRevert(version: number): void;
}) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const author = (version: RuleVersion) => {
    const by = version.createdBy;
    if (!by) return '—';
    if (by.kind === 'employee')
      return by.employeeId === null
        ? t('rulesByEmployee')
        : (employees.get(by.employeeId) ?? `${t('rulesByEmployee')} #${by.employeeId}`);
    return by.kind === 'shop' ? t('rulesByShopKey') : t('rulesByAccountToken');
  };
  return (
    <Card withBorder data-testid="rule-versions">
      <Title order={3} size="h5" mb="xs">
        {t('rulesVersions')}
      </Title>
      {versions.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('rulesNoVersions')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('rulesVersion')}</Table.Th>
                <Table.Th>{t('rulesWhen')}</Table.Th>
                <Table.Th>{t('rulesWho')}</Table.Th>
                <Table.Th>{t('rulesCount')}</Table.Th>
                <Table.Th>{t('rulesComment')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {versions.map((version, at) => (
                <Table.Tr key={version.version} data-testid="rule-version" data-version={version.version}>
                  <Table.Td>{version.version}</Table.Td>
                  <Table.Td>{formatInstant(version.createdAt, locale, session.timeZone)}</Table.Td>
                  <Table.Td>{author(version)}</Table.Td>
                  <Table.Td>{version.ruleCount}</Table.Td>
                  <Table.Td>
                    {version.comment ?? ''}
                    {version.revertedFrom !== null && (
                      <Text size="xs" c="gray.7">
                        {t('rulesRevertedFrom', { version: version.revertedFrom })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {at === 0 ? (
                      <Text size="xs" c="gray.7">
                        {t('rulesCurrent')}
                      </Text>
                    ) : (
                      <Button
                        variant="default"
                        size="xs"
                        onClick={() => onRevert(version.version)}
                        data-testid="revert-version"
                      >
                        {t('rulesRevert')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
