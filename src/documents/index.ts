/** Renderers: plain data in, PDF bytes out. No database, no HTTP. */
export { renderHandoverAct, renderPickupAct, renderWaybill } from './acts.js';
export { renderAssemblyStatement } from './assembly.js';
export { renderStickerZip, renderStickers, STICKER_FORMATS } from './stickers.js';
export { renderSupplyAct } from './supply-act.js';
export { formatAddress } from './format.js';
export type * from './types.js';
