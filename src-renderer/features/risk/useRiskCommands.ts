// The kill switch's keys and palette entries, mounted once by the app so they work with the
// Risk panel closed.
import { useCommand } from '../../lib/commands';
import { engageKillSwitch, releaseKillSwitch } from '../../services/risk';

export function useRiskCommands(): void {
  useCommand('risk.engageKill', () => void engageKillSwitch());
  useCommand('risk.releaseKill', () => void releaseKillSwitch());
}
