// Order groups: a rolling contracts-limit bucket over several orders. Writes use the write bucket.
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, qInt, qSubaccount } from './query';
import { EmptyBody, EmptyResponse, Id } from '../wire/common';
import {
  CreateOrderGroupRequest,
  CreateOrderGroupResponse,
  OrderGroupDetail,
  OrderGroupsResponse,
  UpdateOrderGroupLimitRequest,
} from '../wire/orders';

const groupParams = z.object({ id: Id }).strict();
const subaccountQuery = z.object({ subaccount: qSubaccount.optional() }).strict();
/** Order groups exist only on exchange index 0. */
const groupIndex = qInt(0, 0);

export const orderGroupEndpoints = {
  getOrderGroups: endpoint({
    id: 'getOrderGroups',
    method: 'GET',
    path: '/portfolio/order_groups',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: subaccountQuery,
    body: null,
    response: OrderGroupsResponse,
    status: 200,
    summary: 'All order groups (a plain list without cursor; normalised to { order_groups })',
  }),
  getOrderGroup: endpoint({
    id: 'getOrderGroup',
    method: 'GET',
    path: '/portfolio/order_groups/{id}',
    auth: 'signed',
    bucket: 'read',
    renderer: 'read',
    params: groupParams,
    query: subaccountQuery,
    body: null,
    response: OrderGroupDetail,
    status: 200,
    summary: 'One order group with its order ids',
  }),
  createOrderGroup: endpoint({
    id: 'createOrderGroup',
    method: 'POST',
    path: '/portfolio/order_groups/create',
    auth: 'signed',
    bucket: 'write',
    renderer: 'write',
    params: noParams,
    query: z.object({}).strict(),
    body: CreateOrderGroupRequest,
    response: CreateOrderGroupResponse,
    status: 201,
    summary: 'Create an order group with a contracts limit (exchange_index 0 only)',
  }),
  deleteOrderGroup: endpoint({
    id: 'deleteOrderGroup',
    method: 'DELETE',
    path: '/portfolio/order_groups/{id}',
    auth: 'signed',
    bucket: 'write',
    renderer: 'write',
    params: groupParams,
    query: z.object({ subaccount: qSubaccount.optional(), exchange_index: groupIndex.optional() }).strict(),
    body: null,
    response: EmptyResponse,
    status: 200,
    summary: 'Tear down an order group (404 if already gone)',
  }),
  resetOrderGroup: endpoint({
    id: 'resetOrderGroup',
    method: 'PUT',
    path: '/portfolio/order_groups/{id}/reset',
    auth: 'signed',
    bucket: 'write',
    renderer: 'write',
    params: groupParams,
    query: z.object({ subaccount: qSubaccount.optional(), exchange_index: groupIndex.optional() }).strict(),
    body: EmptyBody,
    response: EmptyResponse,
    status: 200,
    summary: "Clear the group's matched-contracts counter",
  }),
  triggerOrderGroup: endpoint({
    id: 'triggerOrderGroup',
    method: 'PUT',
    path: '/portfolio/order_groups/{id}/trigger',
    auth: 'signed',
    bucket: 'write',
    renderer: 'write',
    params: groupParams,
    query: z.object({ subaccount: qSubaccount.optional(), exchange_index: groupIndex.optional() }).strict(),
    body: EmptyBody,
    response: EmptyResponse,
    status: 200,
    summary: 'Force the group to its cap (trips it)',
  }),
  updateOrderGroupLimit: endpoint({
    id: 'updateOrderGroupLimit',
    method: 'PUT',
    path: '/portfolio/order_groups/{id}/limit',
    auth: 'signed',
    bucket: 'write',
    renderer: 'write',
    params: groupParams,
    // the spec: no `subaccount` query here; the SDK may send exchange_index
    query: z.object({ exchange_index: groupIndex.optional() }).strict(),
    body: UpdateOrderGroupLimitRequest,
    response: EmptyResponse,
    status: 200,
    summary: "Replace the group's contracts_limit",
  }),
} as const;
