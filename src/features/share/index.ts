// The share feature's page-side surface: the top bar's Share button (with its dialog), and the seam
// through which other features give the parts of the view a link carries.
export { ShareButton } from "./ShareDialog";
export { provideLinkViewPart } from "./linkViewParts";
