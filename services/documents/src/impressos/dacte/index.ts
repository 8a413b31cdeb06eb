export { renderDacte, type DacteOptions } from './render';
export { qrCodePortal, qrCodeText } from './qr-code';
