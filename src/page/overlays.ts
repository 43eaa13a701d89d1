// Which keyboard overlay is open: the "go to turn" box (g, Ctrl+G) or the shortcuts panel (?).
import { create } from "zustand";

export type Overlay = "goto" | "shortcuts" | null;

export const useOverlayStore = create<{ overlay: Overlay }>()(() => ({ overlay: null }));

export function openOverlay(overlay: Overlay): void {
  useOverlayStore.setState({ overlay });
}

export function closeOverlay(): void {
  useOverlayStore.setState({ overlay: null });
}
