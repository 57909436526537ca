/**
 * The one table of the dashboard's lists: Mantine's Table inside Table.ScrollContainer (a wide
 * table scrolls sideways in its own box instead of pushing the page wider), columns given as
 * data, optional selection across the page (a header checkbox for the page, one per row),
 * server-side paging with the total the API sends in X-Total-Count, and the empty and loading
 * states. It knows no words of its own: the page passes them in `labels`, so the component
 * does not depend on the dictionary and any page can use it.
 */
import { Checkbox, Group, LoadingOverlay, Pagination, Select, Table, Text } from '@mantine/core';
import type { CSSProperties, Key, ReactNode } from 'react';

export interface DataTableColumn<Row> {
  /** Stable column key (React key and the default `data-column` attribute). */
  key: string;
  header: ReactNode;
  cell(row: Row): ReactNode;
  /** Extra attributes of the cell: a class for an error colour, a test id... */
  cellProps?(row: Row): Record<string, string | undefined>;
  width?: CSSProperties['width'];
}

export interface DataTablePaging {
  page: number;
  perPage: number;
  /** X-Total-Count of the list answer. */
  total: number;
  onPage(page: number): void;
  /** Given: a per-page choice is shown with these sizes. */
  perPageOptions?: number[];
  onPerPage?(perPage: number): void;
}

export interface DataTableSelection<RowKey> {
  selected: ReadonlySet<RowKey>;
  onChange(next: Set<RowKey>): void;
}

export interface DataTableLabels<Row> {
  /** Shown in place of rows when the (loaded) page is empty. */
  empty: ReactNode;
  /** The header checkbox's accessible name. */
  selectPage?: string;
  /** Each row checkbox's accessible name. */
  selectRow?(row: Row): string;
  /** Accessible name of the per-page choice. */
  perPage?: string;
  /** Text before the total ("Total: 12"); none: the total is not shown. */
  total?(total: number): ReactNode;
}

export interface DataTableProps<Row, RowKey extends Key> {
  columns: Array<DataTableColumn<Row>>;
  /** null while the first answer is awaited. */
  rows: Row[] | null;
  rowKey(row: Row): RowKey;
  labels: DataTableLabels<Row>;
  /** A later page is being fetched: the old rows stay under an overlay. */
  loading?: boolean;
  selection?: DataTableSelection<RowKey>;
  paging?: DataTablePaging;
  /** Width under which the table scrolls sideways rather than squeezing its columns. */
  minWidth?: number;
  /** Attributes of each row (data-* for tests, a highlight). */
  rowProps?(row: Row): Record<string, string | undefined>;
  /** Goes on the <table> (tests find tables by it). */
  testId?: string;
  /** The table's accessible name when the page has no heading naming it. */
  ariaLabel?: string;
  striped?: boolean;
}

export function DataTable<Row, RowKey extends Key>(props: DataTableProps<Row, RowKey>) {
  const { columns, rows, rowKey, labels, selection, paging } = props;
  const pageKeys = (rows ?? []).map(rowKey);
  const allSelected =
    selection !== undefined && pageKeys.length > 0 && pageKeys.every((key) => selection.selected.has(key));
  const someSelected = selection !== undefined && pageKeys.some((key) => selection.selected.has(key));
  const toggle = (key: RowKey) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selection.onChange(next);
  };
  const togglePage = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const key of pageKeys) {
      if (allSelected) next.delete(key);
      else next.add(key);
    }
    selection.onChange(next);
  };
  const columnCount = columns.length + (selection ? 1 : 0);
  const pages = paging ? Math.max(1, Math.ceil(paging.total / paging.perPage)) : 1;

  return (
    <>
      <div style={{ position: 'relative' }}>
        <LoadingOverlay visible={rows === null || props.loading === true} zIndex={5} overlayProps={{ blur: 1 }} />
        <Table.ScrollContainer minWidth={props.minWidth ?? 700}>
          <Table
            striped={props.striped ?? true}
            highlightOnHover
            data-testid={props.testId}
            aria-label={props.ariaLabel}
            aria-busy={rows === null || props.loading === true}
          >
            <Table.Thead>
              <Table.Tr>
                {selection && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={labels.selectPage}
                      checked={allSelected}
                      indeterminate={!allSelected && someSelected}
                      onChange={togglePage}
                    />
                  </Table.Th>
                )}
                {columns.map((column) => (
                  <Table.Th key={column.key} w={column.width}>
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(rows ?? []).map((row) => {
                const key = rowKey(row);
                const checked = selection?.selected.has(key) ?? false;
                return (
                  <Table.Tr
                    key={key}
                    // indigo-0, not indigo-light: a link's indigo text on indigo-light is 4.46:1, under WCAG's 4.5 (axe found it on a checked row)
                    bg={checked ? 'var(--mantine-color-indigo-0)' : undefined}
                    {...props.rowProps?.(row)}
                  >
                    {selection && (
                      <Table.Td>
                        <Checkbox aria-label={labels.selectRow?.(row)} checked={checked} onChange={() => toggle(key)} />
                      </Table.Td>
                    )}
                    {columns.map((column) => (
                      <Table.Td key={column.key} {...column.cellProps?.(row)}>
                        {column.cell(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
              {rows !== null && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columnCount}>
                    <Text c="gray.7" data-testid="table-empty">
                      {labels.empty}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </div>
      {paging && (
        <Group justify="space-between">
          {labels.total ? (
            <Text size="sm" data-testid="total">
              {labels.total(paging.total)}
            </Text>
          ) : (
            <span />
          )}
          {pages > 1 && (
            <Pagination
              total={pages}
              value={Math.min(paging.page, pages)}
              onChange={paging.onPage}
              siblings={1}
              getControlProps={(control) => ({ 'aria-label': String(control) })}
            />
          )}
          {paging.perPageOptions && paging.onPerPage && (
            <Select
              w={110}
              aria-label={labels.perPage}
              value={String(paging.perPage)}
              onChange={(value) => value && paging.onPerPage?.(Number(value))}
              data={paging.perPageOptions.map(String)}
              allowDeselect={false}
            />
          )}
        </Group>
      )}
    </>
  );
}
