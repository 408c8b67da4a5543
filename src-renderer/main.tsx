// Entry point of the renderer. No inline scripts, no eval: the page runs under a strict CSP.
import './zod-setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import 'dockview/dist/styles/dockview.css';
import './styles/app.css';
import { createQueryClient } from './lib/query';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
