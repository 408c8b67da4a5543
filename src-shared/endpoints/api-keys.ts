// API key management. Managing keys requires an existing key.
import { z } from 'zod';
import { endpoint } from './types';
import { noParams, noQuery } from './query';
import { EmptyResponse, Id } from '../wire/common';
import {
  ApiKeysResponse,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  GenerateApiKeyRequest,
  GenerateApiKeyResponse,
} from '../wire/api-keys';

const signedRead = { auth: 'signed', bucket: 'read' } as const;

export const apiKeyEndpoints = {
  getApiKeys: endpoint({
    id: 'getApiKeys',
    method: 'GET',
    renderer: 'read',
    path: '/api_keys',
    ...signedRead,
    params: noParams,
    query: z.object({ fcm_subtrader_id: Id.optional() }).strict(),
    body: null,
    response: ApiKeysResponse,
    status: 200,
    summary: "The account's API keys",
  }),
  createApiKey: endpoint({
    id: 'createApiKey',
    method: 'POST',
    path: '/api_keys',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: CreateApiKeyRequest,
    response: CreateApiKeyResponse,
    status: 201,
    summary: 'Register an uploaded RSA public key',
  }),
  generateApiKey: endpoint({
    id: 'generateApiKey',
    method: 'POST',
    path: '/api_keys/generate',
    ...signedRead,
    params: noParams,
    query: noQuery,
    body: GenerateApiKeyRequest,
    response: GenerateApiKeyResponse,
    status: 201,
    summary: 'Mint a key pair; the private key is returned once',
  }),
  deleteApiKey: endpoint({
    id: 'deleteApiKey',
    method: 'DELETE',
    path: '/api_keys/{api_key}',
    ...signedRead,
    params: z.object({ api_key: Id }).strict(),
    query: noQuery,
    body: null,
    response: EmptyResponse,
    status: 204,
    summary: 'Revoke a key (404 if already revoked or unknown)',
  }),
} as const;
