// Account rate-limit tier, endpoint costs, volume progress and the usage-level upgrade.
import { endpoint } from './types';
import { noParams, noQuery } from './query';
import { EmptyBody, EmptyResponse } from '../wire/common';
import { AccountLimits, EndpointCosts, VolumeProgress } from '../wire/account';

const signedRead = { auth: 'signed', bucket: 'read' } as const;

export const accountEndpoints = {
  getAccountLimits: endpoint({
    id: 'getAccountLimits',
    method: 'GET',
    renderer: 'read',
    path: '/account/limits',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: null,
    response: AccountLimits,
    status: 200,
    summary: 'Usage tier and read/write token buckets',
  }),
  getEndpointCosts: endpoint({
    id: 'getEndpointCosts',
    method: 'GET',
    renderer: 'read',
    path: '/account/endpoint_costs',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: null,
    response: EndpointCosts,
    status: 200,
    summary: 'Token cost per endpoint that differs from default_cost',
  }),
  getVolumeProgress: endpoint({
    id: 'getVolumeProgress',
    method: 'GET',
    renderer: 'read',
    path: '/account/api_usage_level/volume_progress',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: null,
    response: VolumeProgress,
    status: 200,
    summary: 'Trailing 30-day volume against usage-level goals (event_contract lane)',
  }),
  upgradeApiUsageLevel: endpoint({
    id: 'upgradeApiUsageLevel',
    method: 'POST',
    renderer: 'write',
    path: '/account/api_usage_level/upgrade',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: EmptyBody,
    response: EmptyResponse,
    status: 201,
    summary: 'Request a permanent Advanced grant (403 unless one of the last 100 orders came through the API)',
  }),
} as const;
