/** The QR code text moved to the domain (it is pure): the DACTE and the CT-e builder share it. */
export { qrCodePortal, qrCodeText } from '@frete/domain';
