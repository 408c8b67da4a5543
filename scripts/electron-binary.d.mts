// Types of electron-binary.mjs (plain JS so it runs before any dependency is built).
export declare const root: string;
export declare function electronBinary(): { ok: true; path: string; pkgDir: string } | { ok: false; why: string };
export declare function downloadElectron(): { ok: boolean; reason: string };
