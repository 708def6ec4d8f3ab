// The one way a suite starts Debian's Chromium (make browser installs it), headless; refused in
// `make unit`, which runs without it.
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';
import { refuseInUnitRun } from './unitRun.ts';

export function launchChromium(
  options: Omit<LaunchOptions, 'executablePath'> = {},
): Promise<Browser> {
  refuseInUnitRun('Chromium');
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, ...options });
}
