// The FCM domain module: subtraders, blocked categories, daily caps, and subtrader orders
// (which pass the one pre-trade check in state/fcm.ts before reaching the engine).
import type { DomainModule } from '../state/domain';
import { applyFcm, emptyFcm, FCM_DOMAIN, type FcmCommand, type FcmState } from '../state/fcm';

export const fcmModule: DomainModule<FcmState, FcmCommand> = {
  name: FCM_DOMAIN,
  commandTypes: ['createSubtrader', 'setSubtraderBlockedCategory', 'setSubtraderDailyCap', 'clearSubtraderDailyCap', 'placeSubtraderOrder'],
  empty: emptyFcm,
  apply: applyFcm,
};
