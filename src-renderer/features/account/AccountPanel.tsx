// Account: profiles and the keys the terminal holds, the exchange's keys, limits and volume,
// funding history, and the balance allocation across exchange instances; one file per view.
import { TabbedPanel, type PanelTab } from '../../ui/TabbedPanel';
import { Profiles } from './Profiles';
import { ExchangeKeys } from './ExchangeKeys';
import { Limits } from './Limits';
import { Funding } from './Funding';
import { Allocation } from './Allocation';

type Tab = 'profiles' | 'apikeys' | 'limits' | 'funding' | 'allocation';

const ACCOUNT_TABS: readonly PanelTab<Tab>[] = [
  { id: 'profiles', label: 'Profiles & keys', render: () => <Profiles /> },
  { id: 'apikeys', label: 'Exchange keys', render: () => <ExchangeKeys /> },
  { id: 'limits', label: 'Limits & volume', render: () => <Limits /> },
  { id: 'funding', label: 'Funding', render: () => <Funding /> },
  { id: 'allocation', label: 'Allocation', render: () => <Allocation /> },
];

export function AccountPanel() {
  return <TabbedPanel label="Account views" tabs={ACCOUNT_TABS} />;
}
