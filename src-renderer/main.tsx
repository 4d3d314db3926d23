/** Renderer entry: styles, the React root, then the connection to the engine. */
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { bootstrap } from './app/bootstrap.js';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void bootstrap();
