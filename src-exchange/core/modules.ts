// The registry of domain modules. A new module is one import and one entry here.
import type { DomainModule } from '../state/domain';
import { usersModule } from './users-module';
import { catalogModule } from './catalog-module';
import { walletModule } from './wallet-module';
import { ordersModule } from './orders-module';
import { commsModule } from './comms-module';
import { fcmModule } from './fcm-module';
// (catalog module: market-data owner) (wallet module: portfolio owner) (comms and fcm modules: communications owner)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const domainModules: readonly DomainModule<any, any>[] = [
  usersModule,
  walletModule,
  ordersModule,
  catalogModule,
  commsModule,
  fcmModule,
  // registered modules go here, one per line
];
