// The one shell of a panel with views: a tab bar with the WAI-ARIA keyboard model, an optional
// strip under it, and the chosen view in a tabpanel. Controlled (value + onChange) when the
// panel moves between its own tabs, uncontrolled (initial) otherwise.
import { useState, type ReactNode } from 'react';
import { Tabs, type TabDef } from './Tabs';

export interface PanelTab<T extends string> extends TabDef<T> {
  render: () => ReactNode;
}

interface Props<T extends string> {
  /** names the tab list for screen readers, e.g. "Account views" */
  label: string;
  tabs: readonly PanelTab<T>[];
  /** controlled: the open tab and how to change it */
  value?: T;
  onChange?: (id: T) => void;
  /** uncontrolled: the tab open at first (default: the first visible) */
  initial?: T;
  /** shown between the tab bar and the view (a status strip) */
  strip?: ReactNode;
  className?: string;
  testId?: string;
}

export function TabbedPanel<T extends string>({ label, tabs, value, onChange, initial, strip, className, testId }: Props<T>) {
  const visible = tabs.filter((t) => !t.hidden);
  const [own, setOwn] = useState<T | undefined>(initial ?? visible[0]?.id);
  const current = value ?? own;
  const select = (id: T) => {
    if (value === undefined) setOwn(id);
    onChange?.(id);
  };
  const open = visible.find((t) => t.id === current) ?? visible[0];
  return (
    <div className={`panel${className ? ` ${className}` : ''}`} data-testid={testId}>
      {open && <Tabs label={label} tabs={tabs} value={open.id} onChange={select} />}
      {strip}
      <div className="tabpanel" role="tabpanel" aria-label={open ? open.label : label}>
        {open?.render()}
      </div>
    </div>
  );
}
