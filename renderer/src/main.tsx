import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to show Matchdesk in.');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
