// A QR code of a URL as an inline SVG (one path of dark modules), drawn from qrcode-generator's
// matrix (MIT, bundled by Vite): no image request, no canvas, nothing inline to allow in the CSP.
import qrcode from 'qrcode-generator';

const QUIET = 4;

export function QrCode({ value, label }: { value: string; label: string }) {
  const code = qrcode(0, 'M');
  code.addData(value);
  code.make();
  const count = code.getModuleCount();
  let path = '';
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++)
      if (code.isDark(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
  const size = count + QUIET * 2;
  return (
    <svg
      class="qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
