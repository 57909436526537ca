/** The service's fulfilment warehouses (GET /v2/warehouses?hold=1), where supplies go and stock is kept. */
import { api } from '../api';
import { useList } from './use-list';

export function useFulfilmentWarehouses(): Array<{ id: number; name: string }> {
  const { data } = useList(() => api.GET('/v2/warehouses', { params: { query: { hold: 1, perPage: 1000 } } }), 'hold');
  return (data ?? []).map((warehouse) => ({ id: warehouse.id, name: warehouse.name }));
}
