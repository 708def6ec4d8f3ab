// The capture page's entry: reads the page token from its own URL (/capture/<token>) and mounts
// the app. The token stays in the address bar so a reload keeps working; the page is served with
// Referrer-Policy no-referrer and no-store, and links out only to the session's redirect URL.
import { render } from 'preact';
import { CaptureApi } from './api.ts';
import { App } from './App.tsx';
import './styles.css';

const token = /\/capture\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname)?.[1] ?? '';
const root = document.getElementById('app');
if (root) render(<App api={new CaptureApi(token)} hasToken={token !== ''} />, root);
