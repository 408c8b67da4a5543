// The official SDK's API classes, configured as a bot written against the real exchange would
// configure them: the base URL, a key id and its PEM. The SDK signs every request itself with
// KALSHI- headers (which the embedded exchange accepts beside its own SVC- prefix).
//
// Each account gets its own axios instance: the SDK's BaseAPI installs its signing interceptor
// on the instance it is given (by default the shared global one, where the first account's
// interceptor would sign every account's requests). Statuses are all "valid" so the test sees
// error answers as answers instead of thrown errors.
import { createRequire } from 'node:module';
import type { AxiosResponse, AxiosStatic } from 'axios';
import {
  AccountApi,
  ApiKeysApi,
  CommunicationsApi,
  Configuration,
  EventsApi,
  ExchangeApi,
  FcmApi,
  HistoricalApi,
  IncentiveProgramsApi,
  LiveDataApi,
  MarketApi,
  MilestoneApi,
  MultivariateApi,
  OrderGroupsApi,
  OrdersApi,
  PortfolioApi,
  SearchApi,
  StructuredTargetsApi,
} from 'kalshi-typescript';
import type { ProvisionedAccount } from '../../src-shared/credentials';

// the axios the SDK itself was installed with
const sdkRequire = createRequire(createRequire(import.meta.url).resolve('kalshi-typescript'));
const axios = sdkRequire('axios') as AxiosStatic;

export interface SdkClient {
  account: AccountApi;
  apiKeys: ApiKeysApi;
  communications: CommunicationsApi;
  events: EventsApi;
  exchange: ExchangeApi;
  fcm: FcmApi;
  historical: HistoricalApi;
  incentivePrograms: IncentiveProgramsApi;
  liveData: LiveDataApi;
  market: MarketApi;
  milestone: MilestoneApi;
  multivariate: MultivariateApi;
  orderGroups: OrderGroupsApi;
  orders: OrdersApi;
  portfolio: PortfolioApi;
  search: SearchApi;
  structuredTargets: StructuredTargetsApi;
}

export function sdkClient(baseUrl: string, who: ProvisionedAccount): SdkClient {
  const configuration = new Configuration({
    basePath: baseUrl,
    apiKey: who.api_key_id,
    privateKeyPem: who.private_key_pem,
    baseOptions: { validateStatus: () => true },
  });
  const http = axios.create();
  const make = <T>(Api: new (c: Configuration, basePath: string, axios: ReturnType<AxiosStatic['create']>) => T): T => new Api(configuration, baseUrl, http);
  return {
    account: make(AccountApi),
    apiKeys: make(ApiKeysApi),
    communications: make(CommunicationsApi),
    events: make(EventsApi),
    exchange: make(ExchangeApi),
    fcm: make(FcmApi),
    historical: make(HistoricalApi),
    incentivePrograms: make(IncentiveProgramsApi),
    liveData: make(LiveDataApi),
    market: make(MarketApi),
    milestone: make(MilestoneApi),
    multivariate: make(MultivariateApi),
    orderGroups: make(OrderGroupsApi),
    orders: make(OrdersApi),
    portfolio: make(PortfolioApi),
    search: make(SearchApi),
    structuredTargets: make(StructuredTargetsApi),
  };
}

export type SdkAnswer = Pick<AxiosResponse<unknown>, 'status' | 'data'>;
