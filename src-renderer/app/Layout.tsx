// The dockable layout (dockview, vanilla) with the panels rendered into it through React
// portals, so every panel shares the app's providers. The layout is saved per profile through
// api.saveLayout and restored from api.getLayout; "reset layout" rebuilds the default.
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type MutableRefObject, type RefObject, type SetStateAction } from 'react';
import { createPortal } from 'react-dom';
import { DockviewComponent, themeDark, themeLight, type DockviewApi, type SerializedDockview } from 'dockview';
import { getTerminalApi } from '../lib/bridge';
import { errorText } from '../lib/errors';
import { useCommand, useCommands } from '../lib/commands';
import { PANEL_IDS, PANEL_TITLES, type PanelId } from '../lib/keymap';
import { useConnection } from '../stores/connection';
import { notify } from '../stores/notices';
import { useSession } from '../stores/session';
import { buildDefaultLayout } from './default-layout';
import { growToFit, GROWS_TO_FIT } from './grow-to-fit';
import { isPanelId, LINKABLE, PANELS } from './panels';
import { PanelLinkContext, type PanelLink } from '../hooks/useLink';
import { LINK_COLOURS, useTrading, type Link } from '../stores/trading';
import { LinkChip } from '../ui/LinkChip';
import { confirmAction } from '../ui/confirm';
import { LayoutsDialog } from '../features/layouts/LayoutsDialog';
import { focusLater } from '../lib/focus-later';

interface Mount {
  component: PanelId;
  el: HTMLElement;
  link: Link;
  pinned: string | null;
}

const isLink = (v: unknown): v is Link => v === 'pin' || (LINK_COLOURS as readonly unknown[]).includes(v);
const titleOf = (component: PanelId, link: Link, pinned: string | null) =>
  !LINKABLE.has(component) || link === 'white' ? PANEL_TITLES[component] : `${PANEL_TITLES[component]} · ${link === 'pin' ? (pinned ?? 'pinned') : link}`;

/** One panel's link, kept in its dockview params (saved with the layout). */
function LinkedPortal({ id, m, update }: { id: string; m: Mount; update: (id: string, patch: Partial<Mount>) => void }) {
  const value = useMemo<PanelLink>(
    () => ({
      panelId: id,
      link: m.link,
      pinned: m.pinned,
      setLink: (link) => update(id, { link }),
      setPinned: (pinned) => update(id, { pinned }),
    }),
    [id, m.link, m.pinned, update],
  );
  const linkable = LINKABLE.has(m.component);
  return (
    <PanelLinkContext.Provider value={value}>
      <div data-panel={m.component} data-panel-id={id} data-link={m.link} className={`u-h-100${linkable ? ' linkable' : ''}`}>
        {linkable && (
          <div className="panel-link">
            <LinkChip />
          </div>
        )}
        {PANELS[m.component].render()}
      </div>
    </PanelLinkContext.Provider>
  );
}

const LAYOUT_VERSION = 1;

interface SavedLayout {
  version: number;
  dock: SerializedDockview;
}

function readSaved(v: unknown): SerializedDockview | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Partial<SavedLayout>;
  if (s.version !== LAYOUT_VERSION || !s.dock || typeof s.dock !== 'object' || !s.dock.grid || !s.dock.panels) return null;
  // a layout naming a panel this build does not have is not ours to load
  for (const p of Object.values(s.dock.panels)) if (!isPanelId(p.contentComponent ?? p.id)) return null;
  return s.dock;
}

/** A split leaves each side at least this wide (a ladder's columns); narrower, a new panel floats instead. */
const MIN_SPLIT_WIDTH = 280;

/** Something useful to focus inside a panel: its marked target, else its first control. */
function focusTargetIn(el: HTMLElement | null): HTMLElement | null {
  if (!el) return null;
  return (
    el.querySelector<HTMLElement>('[data-autofocus]') ??
    el.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ??
    el.querySelector<HTMLElement>('input, select, textarea, button, [tabindex="0"]')
  );
}

export function DockLayout() {
  const host = useRef<HTMLDivElement>(null);
  const apiRef = useRef<DockviewApi | null>(null);
  const [mounts, setMounts] = useState<Record<string, Mount>>({});
  const profileId = useSession((s) => s.app?.activeProfileId ?? null);
  const hasApp = useSession((s) => s.app !== null);
  const theme = useSession((s) => s.settings.theme);
  const isFcm = useConnection((s) => s.view?.isFcmMember ?? false);
  const loadedFor = useRef<string | null | undefined>(undefined);
  const held = useRef<(() => void)[]>([]);
  const fcmRef = useRef(isFcm);
  fcmRef.current = isFcm;

  useDockview(host, apiRef, setMounts, loadedFor);

  useEffect(() => {
    apiRef.current?.updateOptions({ theme: theme === 'light' ? themeLight : themeDark });
  }, [theme]);

  // asks first (Keep is the focused button): the trader's arrangement is not thrown away by a stray key
  const reset = useCallback(async () => {
    if (loadedFor.current === undefined) await settled(loadedFor, held);
    const ok = await confirmAction({
      title: 'Reset the layout?',
      body: 'Every panel goes back to the default place and size; panels you added are closed. The layout saved for this profile is replaced.',
      confirmLabel: 'Reset layout',
      danger: true,
    });
    const api = apiRef.current;
    if (!ok || !api) return;
    api.clear();
    buildDefaultLayout(api, fcmRef.current);
  }, []);

  useProfileLayout(apiRef, profileId, hasApp, loadedFor, held, fcmRef);
  useFcmPanel(apiRef, isFcm, mounts);

  const updateLink = useCallback((id: string, patch: Partial<Mount>) => {
    setMounts((all) => {
      const m = all[id];
      if (!m) return all;
      const next = { ...m, ...patch };
      const panel = apiRef.current?.getPanel(id);
      panel?.api.updateParameters({ link: next.link, pinned: next.pinned });
      panel?.api.setTitle(titleOf(next.component, next.link, next.pinned));
      useTrading.getState().setPin(id, next.link === 'pin' ? next.pinned : null);
      return { ...all, [id]: next };
    });
  }, []);

  useLayoutCommands(apiRef, mounts, fcmRef, isFcm, reset, loadedFor, held);
  const named = useNamedLayoutIo(apiRef);

  return (
    <div className="app-dock">
      <div ref={host} className="dock-host" />
      {Object.entries(mounts).map(([id, m]) => createPortal(<LinkedPortal id={id} m={m} update={updateLink} />, m.el, id))}
      <LayoutsDialog snapshot={named.snapshot} apply={named.apply} reset={reset} />
    </div>
  );
}

type ApiRef = MutableRefObject<DockviewApi | null>;
/** The profile whose layout is on screen: undefined while the terminal's state or the profile's layout is still loading, null for no profile. */
type LoadedFor = MutableRefObject<string | null | undefined>;
/**
 * What the trader asked of the layout (a panel's key, a new linked panel, reset, pop-out) while
 * it was still loading: held, and done in order once the profile's layout is on screen. Done at
 * once, the restore that follows would take it away again (a key pressed during a slow start
 * added the panel, then the start's restore rebuilt the layout without it).
 */
type Held = MutableRefObject<(() => void)[]>;

/** Runs `fn` now if the layout is settled, else once it is. */
function whenSettled(loadedFor: LoadedFor, held: Held, fn: () => void): void {
  if (loadedFor.current !== undefined) fn();
  else held.current.push(fn);
}

/** Resolves once the layout is settled (at once if it is). */
function settled(loadedFor: LoadedFor, held: Held): Promise<void> {
  return new Promise((resolve) => whenSettled(loadedFor, held, resolve));
}

/** The layout is settled for `to`: what was held runs, in the order it was asked. */
function settle(loadedFor: LoadedFor, held: Held, to: string | null): void {
  loadedFor.current = to;
  for (const fn of held.current.splice(0)) fn();
}

/**
 * The dockview itself, made once on the host: each panel it creates is mounted (a portal target
 * with its link read from its params) and unmounted with it; a layout change is saved for the
 * profile whose layout is loaded, 800 ms after the last change.
 */
function useDockview(host: RefObject<HTMLDivElement | null>, apiRef: ApiRef, setMounts: Dispatch<SetStateAction<Record<string, Mount>>>, loadedFor: LoadedFor) {
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!host.current) return undefined;
    const dock = new DockviewComponent(host.current, {
      theme: useSession.getState().settings.theme === 'light' ? themeLight : themeDark,
      getTabContextMenuItems: () => ['close', 'closeOthers', 'separator', 'maximize', 'float', 'popout'],
      // a panel popped out into its own window (Electron opens only this page, with the same sandbox)
      popoutUrl: './popout.html',
      createComponent: ({ id, name }) => mountable(id, name, setMounts),
    });
    apiRef.current = dock.api;
    const off = dock.api.onDidLayoutChange(() => {
      const pid = loadedFor.current;
      if (pid === undefined || pid === null) return;
      if (saveTimer.current) clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(() => {
        const layout: SavedLayout = { version: LAYOUT_VERSION, dock: dock.api.toJSON() };
        getTerminalApi()
          .saveLayout({ profileId: pid, layout })
          .catch((err: unknown) => notify('warning', 'Could not save the layout', errorText(err)));
      }, 800);
    });
    return () => {
      off.dispose();
      if (saveTimer.current) clearTimeout(saveTimer.current);
      apiRef.current = null;
      dock.dispose();
    };
    // made once: the host, the refs and the setter never change
  }, [host, apiRef, setMounts, loadedFor]);
}

/** One dockview panel's element, mounted into React's portals on init and unmounted on dispose. */
function mountable(id: string, name: string, setMounts: Dispatch<SetStateAction<Record<string, Mount>>>) {
  const el = document.createElement('div');
  el.className = 'dock-panel';
  el.style.height = '100%';
  return {
    element: el,
    init: (p: { params?: Record<string, unknown> }) => {
      if (!isPanelId(name)) return;
      const params = (p.params ?? {}) as { link?: unknown; pinned?: unknown };
      const link = isLink(params.link) ? params.link : 'white';
      const pinned = typeof params.pinned === 'string' ? params.pinned : null;
      if (link === 'pin' && pinned) useTrading.getState().setPin(id, pinned);
      setMounts((m) => ({ ...m, [id]: { component: name, el, link, pinned } }));
    },
    dispose: () => {
      useTrading.getState().setPin(id, null);
      setMounts((m) => {
        const next = { ...m };
        delete next[id];
        return next;
      });
    },
  };
}

/** A layout's JSON with every object's keys in order: two arrangements compare equal whatever order their panels were added in. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

/** Restores the profile's layout when the profile changes (the default when it has none or it cannot be read). */
function useProfileLayout(apiRef: ApiRef, profileId: string | null, hasApp: boolean, loadedFor: LoadedFor, held: Held, fcmRef: MutableRefObject<boolean>) {
  // the default as built while the profile was not yet known (the page shows it during the start)
  const startDefault = useRef<string | null>(null);
  useEffect(() => {
    const api = apiRef.current;
    if (!api) return;
    let cancelled = false;
    loadedFor.current = undefined;
    const apply = (saved: SerializedDockview | null) => {
      if (cancelled) return;
      // What is on screen already is the layout to show (the saved one, or no saved one and the
      // untouched default of the start): kept, not torn down and built again. Every panel would
      // unmount and mount again (about half a second of the page's work at a start, profiled).
      // With none saved, the default of the start is kept as the trader may have changed it
      // meanwhile (a tab dragged, a panel closed): their layout now.
      const shown = canonical(api.toJSON());
      const keep = saved ? canonical(saved) === shown : startDefault.current !== null;
      startDefault.current = null;
      try {
        if (keep) {
          // nothing to change
        } else if (saved) api.fromJSON(saved);
        else {
          api.clear();
          buildDefaultLayout(api, fcmRef.current);
        }
      } catch (err) {
        notify('warning', 'The saved layout could not be restored; using the default', errorText(err));
        api.clear();
        buildDefaultLayout(api, fcmRef.current);
      }
      settle(loadedFor, held, profileId);
    };
    if (!profileId) {
      if (api.totalPanels === 0) {
        buildDefaultLayout(api, fcmRef.current);
        startDefault.current = canonical(api.toJSON());
      }
      // the terminal's state is loaded and names no profile: nothing more to restore
      if (hasApp) settle(loadedFor, held, null);
      return;
    }
    getTerminalApi()
      .getLayout(profileId)
      .then((v) => apply(readSaved(v)))
      .catch((err: unknown) => {
        notify('warning', 'Could not load the saved layout', errorText(err));
        apply(null);
      });
    return () => {
      cancelled = true;
    };
  }, [profileId, hasApp, apiRef, loadedFor, held, fcmRef]);
}

/** A named layout's way in and out: the arrangement as saved, and one put on screen (false when this build cannot read it: nothing changes). */
function useNamedLayoutIo(apiRef: ApiRef) {
  const snapshot = useCallback((): SavedLayout | null => {
    const api = apiRef.current;
    return api ? { version: LAYOUT_VERSION, dock: api.toJSON() } : null;
  }, [apiRef]);
  const apply = useCallback(
    (layout: unknown): boolean => {
      const api = apiRef.current;
      const dock = readSaved(layout);
      if (!api || !dock) return false;
      const before = api.toJSON();
      try {
        api.fromJSON(dock);
        return true;
      } catch (err) {
        notify('warning', 'That layout could not be restored; the one before is back', errorText(err));
        api.fromJSON(before);
        return false;
      }
    },
    [apiRef],
  );
  return { snapshot, apply };
}

/** The FCM panel is there only for clearing members, and comes in when the key becomes one. */
function useFcmPanel(apiRef: ApiRef, isFcm: boolean, mounts: Record<string, Mount>) {
  useEffect(() => {
    const api = apiRef.current;
    if (!api) return;
    const panel = api.getPanel('fcm');
    if (!isFcm && panel) api.removePanel(panel);
  }, [isFcm, mounts, apiRef]);

  // switching to a clearing member's key brings the FCM panel in beside the blotters (once per
  // switch: a trader who then closes it keeps it closed)
  const wasFcm = useRef(isFcm);
  useEffect(() => {
    const api = apiRef.current;
    const became = isFcm && !wasFcm.current;
    wasFcm.current = isFcm;
    if (!api || !became || api.getPanel('fcm') || api.totalPanels === 0) return;
    const ref = api.getPanel('orders') ?? api.panels[0];
    api.addPanel({ id: 'fcm', component: 'fcm', title: PANEL_TITLES.fcm, inactive: true, ...(ref ? { position: { referencePanel: ref, direction: 'within' as const } } : {}) });
  }, [isFcm, apiRef]);
}

/** New linked panels, going to a panel (Alt+digit), reset and pop-out, as commands. */
function useLayoutCommands(apiRef: ApiRef, mounts: Record<string, Mount>, fcmRef: MutableRefObject<boolean>, isFcm: boolean, reset: () => Promise<void>, loadedFor: LoadedFor, held: Held) {
  const later = (fn: () => void) => () => whenSettled(loadedFor, held, fn);
  /** Another ladder, chart, tape, ticket or markets list, in the first colour no panel of its kind uses yet. */
  const addLinked = useCallback(
    (component: PanelId) => {
      const api = apiRef.current;
      if (!api) return;
      const used = new Set(Object.values(mountsRef.current).filter((m) => m.component === component).map((m) => m.link));
      const link: Link = LINK_COLOURS.find((c) => !used.has(c)) ?? 'red';
      const ref = api.getPanel(component) ?? api.activePanel ?? api.panels[0];
      const id = `${component}-${Date.now().toString(36)}`;
      const base = { id, component, title: titleOf(component, link, null), params: { link, pinned: null } };
      // beside its kind when there is room for both; otherwise floating over the layout (in view,
      // focused, movable), so a new panel never squeezes the ladder or the ticket it sits beside
      if (ref && ref.group.width >= 2 * MIN_SPLIT_WIDTH) api.addPanel({ ...base, position: { referencePanel: ref, direction: 'right' as const } });
      else {
        const n = api.groups.filter((g) => g.api.location.type === 'floating').length;
        api.addPanel({ ...base, floating: { width: 380, height: Math.min(520, Math.max(300, api.height - 120)), x: 80 + 28 * (n % 8), y: 60 + 28 * (n % 8) } });
      }
    },
    [apiRef],
  );
  const mountsRef = useRef(mounts);
  mountsRef.current = mounts;
  useCommand('layout.newLadder', later(() => addLinked('ladder')));
  useCommand('layout.newChart', later(() => addLinked('chart')));
  useCommand('layout.newTape', later(() => addLinked('tape')));
  useCommand('layout.newTicket', later(() => addLinked('ticket')));
  useCommand('layout.newMarkets', later(() => addLinked('markets')));

  const focusPanel = useCallback(
    (id: PanelId) => {
      const api = apiRef.current;
      if (!api) return;
      if (id === 'fcm' && !fcmRef.current) {
        notify('info', 'FCM tools are for clearing members', 'This account is not an FCM member.');
        return;
      }
      let panel = api.getPanel(id);
      if (!panel) {
        // event ladders and the heatmap want room: a tab beside the chart; the rest join the blotters
        const ref = (id === 'eventladders' || id === 'heatmap' ? api.getPanel('chart') : undefined) ?? api.getPanel('orders') ?? api.panels[0];
        panel = api.addPanel({ id, component: id, title: PANEL_TITLES[id], ...(ref ? { position: { referencePanel: ref, direction: 'within' as const } } : {}) });
      }
      panel.api.setActive();
      const el = () => document.querySelector<HTMLElement>(`[data-panel="${id}"]`);
      if (GROWS_TO_FIT.has(id)) requestAnimationFrame(() => growToFit(api, id, el()?.querySelector<HTMLElement>('.panel') ?? null));
      // focus inside the panel a frame later (once shown), unless the trader moved on meanwhile
      focusLater(() => focusTargetIn(el()));
    },
    [apiRef, fcmRef],
  );

  useCommands(PANEL_IDS.map((id) => [`panel.${id}`, later(() => focusPanel(id)), id !== 'fcm' || isFcm] as const));
  useCommand('app.resetLayout', () => void reset());
  useCommand(
    'app.popout',
    later(() => {
      const api = apiRef.current;
      const panel = api?.activePanel;
      if (api && panel) void api.addPopoutGroup(panel);
    }),
  );
}
