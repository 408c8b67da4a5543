// The FIX view main pushes (the 'fix' stream): the active profile's FIX settings, its order
// entry and drop-copy sessions, and what the drop copy and the terminal disagree on.
import { create } from 'zustand';
import type { FixView } from '../../src-shared/ipc/fix';

export const useFix = create<{ view: FixView | null }>()(() => ({ view: null }));

export const setFixView = (view: FixView): void => useFix.setState({ view });
