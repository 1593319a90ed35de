/** Pixels per module on the page. */
const MODULE_PX = 5;

/**
 * A QR code's modules (src/lib/qr-code.ts, quiet zone included) as an inline SVG of one path, with
 * no style attribute (the console's CSP allows none): the page needs no image request, and the
 * secret it encodes never leaves the answer it is in.
 */
export function qrCodeSvg(modules: readonly (readonly boolean[])[], options: { id: string; label: string }): string {
  const size = modules.length;
  let path = '';
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  const px = size * MODULE_PX;
  return `<svg id="${options.id}" role="img" aria-label="${options.label}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${px}" height="${px}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
}
