// The sessions library's page-side surface: its view and top-bar button, opening a folder as the
// library, and the seams the page's mount wires (how a row is opened, the state the tests read).
export { LibraryButton } from "./LibraryButton";
export { LibraryView } from "./LibraryView";
export { libraryTestState, openLibraryFolder, provideRowOpener, showLibrary } from "./libraryState";
