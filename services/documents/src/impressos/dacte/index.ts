export { renderDacte, type DacteOptions } from './render';
export { qrCodePortal, qrCodeText } from './qr-code';
export { dacteDoArquivo, type RegistroDeFalha } from './arquivado';
