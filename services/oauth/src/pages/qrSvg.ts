// A QR code as an inline SVG (one path of dark modules) from qrcode-generator's matrix: no image
// request and nothing inline for the CSP to allow.
import qrcode from 'qrcode-generator';

const QUIET = 4;

export function qrSvg(value: string, label: string): string {
  const code = qrcode(0, 'M');
  code.addData(value);
  code.make();
  const count = code.getModuleCount();
  let path = '';
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++)
      if (code.isDark(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
  const size = count + QUIET * 2;
  return `<svg viewBox="0 0 ${size} ${size}" role="img" aria-label="${label}" shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
