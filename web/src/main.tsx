import '@picocss/pico/css/pico.min.css';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

createRoot(document.getElementById('root')!).render(<App />);
