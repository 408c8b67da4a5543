// Default settings, free of runtime dependencies so the renderer can import the value without
// pulling zod into its bundle.
import type { Settings } from './contract';

export const DEFAULT_SETTINGS: Settings = {
  theme: 'dark',
  keymap: {},
  sizePresets: ['1', '5', '10', '25', '100'],
  // a panic cancel does not ask (as pro terminals); Settings can make it ask
  confirmCancelAll: false,
  notifyOnFill: true,
};
